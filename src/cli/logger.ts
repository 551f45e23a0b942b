import { type Logger, pino } from 'pino';
import type { Config } from '../config/schema.js';

/** Where the log goes: stdout, and whether a person is reading it there. */
export interface LogTarget {
  isTTY: boolean;
}

/**
 * The server's log on stdout: one JSON object a line for machines, readable lines for a person at a
 * terminal (`log.format`, `auto` by default). The banner and the admin key go to stderr, apart from it.
 * pino-pretty is loaded only when the lines are pretty.
 */
export async function createLogger(log: Config['log'], target: LogTarget): Promise<Logger> {
  const pretty = log.format === 'pretty' || (log.format === 'auto' && target.isTTY);
  if (!pretty) return pino({ level: log.level });
  const { default: prettyStream } = await import('pino-pretty');
  return pino(
    { level: log.level },
    prettyStream({
      colorize: target.isTTY,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      // Synchronous: a person reads these, and lines must not be lost when the process exits.
      sync: true,
    }),
  );
}
