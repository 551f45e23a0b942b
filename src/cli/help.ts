/** One command's part of the help: `gen-platform --help` groups them, `gen-platform CMD --help` shows one. */
export interface CommandHelp {
  command: string;
  /** Heading of its group in the overview. */
  group: string;
  summary: string;
  /** Usage lines, each without the leading `gen-platform `. */
  usage: readonly string[];
  /** `--flag VALUE` → what it does. */
  options?: readonly (readonly [string, string])[];
}

export const COMMON_HELP: readonly (readonly [string, string])[] = [
  ['--config FILE', 'configuration file (or GEN_PLATFORM_CONFIG; default ./gen-platform.yaml if present)'],
  ['--data DIR', 'data folder: store, keys, files, models (or GEN_PLATFORM_DATA; default ./data)'],
  ['-h, --help', 'this help; `gen-platform COMMAND --help` for one command'],
  ['-v, --version', 'the version of this gen-platform'],
];

export const EXIT_CODES: readonly (readonly [string, string])[] = [
  ['0', 'done'],
  ['1', 'the command failed (no such key, a store or network failure, an unexpected error)'],
  ['2', 'usage or configuration error (unknown command, action or flag, missing value, bad config)'],
];

function table(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}

const usageLines = (help: CommandHelp) => help.usage.map((u) => `  gen-platform ${u}`);

/** `gen-platform COMMAND --help`, and what a usage error of that command prints under its message. */
export function commandHelp(help: CommandHelp): string {
  return [
    `gen-platform ${help.command}: ${help.summary}`,
    '',
    'Usage:',
    ...usageLines(help),
    ...(help.options?.length ? ['', 'Options:', ...table(help.options)] : []),
    '',
    'Every command also takes:',
    ...table(COMMON_HELP.slice(0, 2)),
    '',
    'Exit codes:',
    ...table(EXIT_CODES),
  ].join('\n');
}

/** `gen-platform --help`: one usage block, the commands grouped under it. */
export function overviewHelp(commands: readonly CommandHelp[]): string {
  const lines = [
    'gen-platform: a self-hostable Model Platform API server',
    '',
    'Usage: gen-platform COMMAND [ACTION] [options]',
  ];
  for (const c of commands) lines.push('', `${c.group}:`, ...usageLines(c));
  lines.push('', 'Every command takes:', ...table(COMMON_HELP), '', 'Exit codes:', ...table(EXIT_CODES));
  return lines.join('\n');
}
