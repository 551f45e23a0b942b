import { loadConfig } from '../config/load.js';
import { createServices } from '../services/create-services.js';
import { parse, UsageError } from './args.js';
import type { CliEnv } from './cli-env.js';
import { MODELS_HELP } from './command-help.js';
import { commandHelp } from './help.js';

export async function modelsCommand(argv: string[], env: CliEnv): Promise<number> {
  const { values, positionals } = parse(argv, {});
  const [action, ...codes] = positionals;
  if (values['help']) {
    env.out(commandHelp(MODELS_HELP));
    return 0;
  }
  if (!action) throw new UsageError('models needs an action: list or pull');
  const { config, configDir } = loadConfig({
    file: values['config'] as string | undefined,
    cwd: env.cwd,
    env: env.vars,
    flags: { data: values['data'] as string | undefined },
  });
  const services = await createServices(config, {
    configDir,
    log: { info: env.out, warn: (_d, m) => env.err(m), error: (_d, m) => env.err(m) },
  });
  try {
    const engines = services.engines;
    const known = engines?.codes() ?? [];
    switch (action) {
      case 'list':
        if (known.length === 0) env.out('No model codes are served: configure `models` or `embedded.default_model`.');
        for (const code of known) env.out(code);
        return 0;
      case 'pull': {
        const unknown = codes.filter((c) => !known.includes(c));
        if (unknown.length > 0) throw new UsageError(`not served here: ${unknown.join(', ')}`);
        const prepared = await engines!.prepare(codes.length > 0 ? codes : known);
        if (prepared.length === 0)
          env.out('Nothing to download: every deployment uses a local file or an upstream server.');
        for (const p of prepared) env.out(`ready: ${p}`);
        return 0;
      }
      default:
        throw new UsageError(`unknown models action "${action}"`);
    }
  } finally {
    await services.close();
  }
}
