import path from 'node:path';
import { loadConfig } from '../config/load.js';
import { createServices } from '../services/create-services.js';
import { giveCollection } from '../services/search/collection-access.js';
import { crawl, INDEXER_USER_AGENT, readDocument } from '../services/search/crawler.js';
import { parse, positiveInt, UsageError } from './args.js';
import type { CliEnv } from './cli-env.js';
import { INDEX_HELP } from './command-help.js';
import { commandHelp } from './help.js';
import { importCommand } from './import-command.js';

export async function indexCommand(argv: string[], env: CliEnv): Promise<number> {
  const { values, positionals } = parse(argv, {
    collection: { type: 'string' },
    account: { type: 'string' },
    'max-pages': { type: 'string' },
    depth: { type: 'string' },
    restart: { type: 'boolean' },
  });
  const [action, ...args] = positionals;
  if (values['help']) {
    env.out(commandHelp(INDEX_HELP));
    return 0;
  }
  if (!action) throw new UsageError('index needs an action: add, crawl, import, remove or stats');
  const collection = values['collection'] as string | undefined;
  const { config, configDir } = loadConfig({
    file: values['config'] as string | undefined,
    cwd: env.cwd,
    env: env.vars,
    flags: { data: values['data'] as string | undefined },
  });
  const services = await createServices(config, { configDir });
  const { index } = services.search;
  try {
    const account = values['account'] as string | undefined;
    if (account !== undefined) {
      if (action !== 'add' && action !== 'crawl' && action !== 'import')
        throw new UsageError('--account goes with add, crawl or import');
      await giveCollection(index, services.accounts, collection, account);
    }
    switch (action) {
      case 'add': {
        if (args.length === 0) throw new UsageError('index add needs at least one URL');
        let failed = 0;
        for (const url of args) {
          try {
            const { doc } = await readDocument(services.reader, url, collection);
            await index.upsert([doc]);
            env.out(`indexed ${doc.url}  (${doc.title})`);
          } catch (err) {
            failed++;
            env.err(`failed ${url}: ${(err as Error).message}`);
          }
        }
        return failed > 0 ? 1 : 0;
      }
      case 'crawl': {
        const [start] = args;
        if (!start) throw new UsageError('index crawl needs a start URL');
        const result = await crawl(services.reader, index, start, {
          maxPages: positiveInt('max-pages', values['max-pages'] as string | undefined) ?? 50,
          depth: positiveInt('depth', values['depth'] as string | undefined) ?? 2,
          collection,
          userAgent: INDEXER_USER_AGENT,
          onProgress: (e) =>
            e.error
              ? env.err(`[${e.pages} indexed, ${e.queued} queued] failed ${e.url}: ${e.error}`)
              : env.out(`[${e.pages} indexed, ${e.queued} queued] ${e.url}`),
        });
        env.out(
          `crawl done: ${result.indexed} indexed, ${result.failed} failed, ${result.skippedByRobots} disallowed by robots.txt`,
        );
        return 0;
      }
      case 'import': {
        const [jsonl] = args;
        if (!jsonl) throw new UsageError('index import needs a JSONL file');
        return await importCommand(index, path.resolve(env.cwd, jsonl), config.data_dir, env, {
          collection,
          restart: values['restart'] === true,
        });
      }
      case 'remove':
        if (args.length === 0) throw new UsageError('index remove needs at least one URL');
        await index.remove(args, collection);
        env.out(`removed ${args.length} URL(s) from ${collection ?? 'web'}`);
        return 0;
      case 'stats': {
        const stats = await index.stats();
        if (stats.length === 0) env.out('The index is empty.');
        for (const s of stats) env.out(`${s.collection}\t${s.documents} documents`);
        return 0;
      }
      default:
        throw new UsageError(`unknown index action "${action}"`);
    }
  } finally {
    await services.close();
  }
}
