/** A logger that may say which levels it writes (pino does). */
export interface LevelAware {
  isLevelEnabled?(level: string): boolean;
}

/**
 * How a failure that is tried again shows in its log line: its message, and its stack only at debug
 * level, so that a retry every few seconds stays one readable line per attempt.
 */
export function failureFields(err: unknown, log: LevelAware): Record<string, unknown> {
  if (log.isLevelEnabled?.('debug')) return { err };
  return { error: err instanceof Error ? err.message : String(err) };
}
