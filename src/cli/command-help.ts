import type { CommandHelp } from './help.js';

// The commands' help, apart from the commands: `--help` and `--version` load no server module.

export const SERVE_HELP: CommandHelp = {
  command: 'serve',
  group: 'Serve the API',
  summary: 'serve the API (`npm start`); remote models download in the background',
  usage: ['serve [--port N] [--host H] [--config FILE] [--data DIR]'],
  options: [
    ['--port N', 'port to listen on (or PORT; default 8080)'],
    ['--host H', 'address to listen on (or HOST; default 127.0.0.1)'],
  ],
};

export const KEYS_HELP: CommandHelp = {
  command: 'keys',
  group: 'API keys',
  summary: 'create, change, roll, list and revoke the API keys clients send as `Authorization: Bearer KEY`',
  usage: [
    'keys create --name NAME [--account ID|EMAIL] [--endpoints general,coding] [--concurrent N] [--rpm N] [--window N/Hh] [--models LIST] [--expires TIME] [--allowed-ips LIST] [--description TEXT]',
    'keys update ID [--name NAME] [--endpoints LIST] [--models LIST] [--expires TIME|never] [--allowed-ips LIST] [--description TEXT]',
    'keys roll ID [--grace SECONDS]',
    'keys list',
    'keys revoke ID',
  ],
  options: [
    ['--name NAME', 'what the key is for (shown by `keys list`)'],
    ['--account ID|EMAIL', 'the console account that owns the key (default: the admin)'],
    ['--endpoints LIST', 'general and/or coding: the bases the key may call (default general)'],
    ['--concurrent N', 'requests at once for this key, 0 = no limit (default: limits.concurrent)'],
    ['--rpm N', 'requests per minute for this key (default: limits.requests_per_minute)'],
    ['--window N/Hh', 'N requests per H hours; repeat for several windows (default: limits.windows)'],
    ['--models LIST', 'model codes or patterns the key may call, e.g. gen-4.6,gen-4.5* ("" = every model)'],
    ['--expires TIME', 'RFC 3339 time (2026-12-31T00:00:00Z) from which the key is refused; never = no expiry'],
    ['--allowed-ips LIST', 'CIDRs the key may be used from, e.g. 10.0.0.0/8,2001:db8::/32 ("" = anywhere)'],
    ['--description TEXT', 'a note on the key, shown by the console and /admin'],
    ['--grace SECONDS', 'roll: how long the replaced secret still works (default 0: refused at once)'],
    ['ID', 'the part of the key before the dot'],
  ],
};

export const MODELS_HELP: CommandHelp = {
  command: 'models',
  group: 'Models',
  summary: 'the model codes this server serves, and their downloads ahead of time',
  usage: ['models list', 'models pull [MODEL_CODE...]'],
  options: [
    ['list', "the model codes served (GET /paas/v4/models adds each one's state)"],
    ['pull', 'download what the deployments of these codes need (default: all), with progress'],
  ],
};

export const ENGINES_HELP: CommandHelp = {
  command: 'engines',
  group: 'Engines',
  summary:
    'build llama-server for `engine: llama-server` deployments, from the llama.cpp source the embedded engine ships with (once per llama.cpp version; needs git, cmake and a C/C++ compiler)',
  usage: ['engines build'],
  options: [['build', 'build it into llama_server.cache_dir (once, some minutes), or print the one already there']],
};

export const INDEX_HELP: CommandHelp = {
  command: 'index',
  group: 'Web search index',
  summary: 'fill the index that web search (`search-prime`) answers from',
  usage: [
    'index add URL... [--collection C] [--account A]',
    'index crawl URL [--max-pages N] [--depth D] [--collection C] [--account A]',
    'index import FILE.jsonl [--collection C] [--account A] [--restart]',
    'index remove URL... [--collection C]',
    'index stats',
  ],
  options: [
    ['--collection C', 'the collection the pages go to (default: the default collection)'],
    ['--account A', 'add, crawl, import: give the collection to this account (id or email); its keys then read it'],
    ['--max-pages N', 'crawl: pages to fetch at most'],
    ['--depth D', 'crawl: links to follow from the start page'],
    ['FILE.jsonl', 'one {url, title, content, published, site} object a line'],
    ['--restart', 'import: start from the first line, not where an interrupted import of the file stopped'],
  ],
};
