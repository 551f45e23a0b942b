import { parseArgs } from 'node:util';

/** Flags every command takes, so that `keys` acts on the same data as the server. */
export const COMMON_OPTIONS = {
  config: { type: 'string' },
  data: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export class UsageError extends Error {
  override name = 'UsageError';
}

type OptionSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;
export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

export function parse(argv: string[], options: OptionSpec): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...COMMON_OPTIONS, ...options },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as ParsedArgs['values'], positionals };
  } catch (err) {
    throw new UsageError(argsProblem(err as Error & { code?: string }));
  }
}

/** node:util's parse errors, said in a line that names the flag. */
function argsProblem(err: Error & { code?: string }): string {
  const flag = /'(-[^' ]+)/.exec(err.message)?.[1];
  if (flag === undefined) return err.message;
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${flag}`;
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return /ambiguous|missing/.test(err.message) ? `${flag} needs a value` : `${flag}: ${err.message}`;
  }
  return err.message;
}

export function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, got "${value}"`);
  return Number(value);
}
