import { buildApp } from '../app/app.js';
import { loadConfig } from '../config/load.js';
import { drain } from '../server/drain.js';
import { tuneHeapForServing } from '../server/heap-tuning.js';
import { startMetricsServer } from '../server/metrics/metrics-server.js';
import { closeServices, createServices } from '../services/create-services.js';
import { readerDependencyChanges } from '../services/reader/dependencies.js';
import { openTracer } from '../telemetry/open-tracer.js';
import { failureFields } from '../util/failure-fields.js';
import { parse, positiveInt } from './args.js';
import type { CliEnv } from './cli-env.js';
import { SERVE_HELP } from './command-help.js';
import { commandHelp } from './help.js';
import { createLogger } from './logger.js';
import { packageVersion } from './version.js';

/** Serves until SIGINT/SIGTERM; resolves with the exit code. */
export async function serveCommand(argv: string[], env: CliEnv): Promise<number> {
  const { values } = parse(argv, { port: { type: 'string' }, host: { type: 'string' } });
  if (values.help) {
    env.out(commandHelp(SERVE_HELP));
    return 0;
  }
  const v8Flags = tuneHeapForServing();
  const { config, file, configDir } = loadConfig({
    file: values.config as string | undefined,
    cwd: env.cwd,
    env: env.vars,
    flags: {
      port: positiveInt('port', values.port as string | undefined),
      host: values.host as string | undefined,
      data: values.data as string | undefined,
    },
  });
  const logger = await createLogger(config.log, { isTTY: process.stdout.isTTY === true });
  logger.info(
    { version: packageVersion(), config: file, data: config.data_dir, node: process.version },
    `Starting gen-platform ${packageVersion()}`,
  );
  // What runs that is not a dependency as published, or not Node's default (vendor/README.md).
  logger.info({ v8_flags: v8Flags, dependencies: readerDependencyChanges() }, 'dependencies in effect');
  const tracer = await openTracer(config.tracing, packageVersion(), (err) =>
    logger.warn(failureFields(err, logger), 'tracing: spans could not be sent to the OTLP receiver'),
  );
  const services = await createServices(config, { log: logger, auditLog: logger, configDir, tracer });
  // Start-up checks of local model files, then the downloads in the background (embedded.preload).
  const terminal = process.stderr.isTTY ? (text: string) => process.stderr.write(text) : undefined;
  try {
    await services.engines?.warmUp({ download: config.embedded.preload, terminal });
  } catch (err) {
    // A deployment that cannot run (no llama-server binary): nothing is served, nothing left open.
    await closeServices(services);
    await tracer?.shutdown();
    throw err;
  }
  // The reader's extraction threads start now, not on the first reads (services/reader/service.ts).
  await services.reader.warmUp();
  const adminKey = await services.keyAdmin.ensureAdminKey();
  // The banner and the admin key go to stderr: stdout is the log stream, which machines read and keep.
  if (adminKey) {
    env.err('Created the admin key for /admin (shown only this once; set GEN_PLATFORM_ADMIN_KEY to use your own):');
    env.err(adminKey);
  }
  const app = await buildApp({ services, logger });
  await app.listen({ port: config.server.port, host: config.server.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.server.port;
  env.err(
    `gen-platform serving on http://${config.server.host}:${port} (data: ${config.data_dir}${file ? `, config: ${file}` : ''})`,
  );

  const metricsPort = config.metrics.port;
  const metricsServer =
    app.platformMetrics && metricsPort !== undefined
      ? await startMetricsServer(app.platformMetrics, config.server.host, metricsPort)
      : undefined;

  return new Promise<number>((resolve) => {
    const hurry = new AbortController();
    const stop = async () => {
      // A second signal cuts the grace period short.
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.once('SIGINT', () => hurry.abort());
      process.once('SIGTERM', () => hurry.abort());
      await drain(app, {
        graceMs: config.shutdown.grace_seconds * 1000,
        hooks: services.shutdown,
        log: logger,
        hurry: hurry.signal,
      });
      metricsServer?.close();
      await closeServices(services);
      await tracer?.shutdown();
      logger.info('Stopped');
      resolve(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
