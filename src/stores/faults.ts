/**
 * What a database driver's error means for the caller: the store is unreachable, full or busy for
 * a moment (a fault: answer 503 and retry later), or something else (a bug or bad data: a 500).
 * SQLSTATEs and socket errors are read here, so that the error handler, the retry loop and /health
 * agree on one reading without knowing which backend is in use; a backend whose driver speaks
 * otherwise turns its own codes into a StoreUnavailableError at its boundary (stores/sqlite/).
 */
export type FaultKind = 'unavailable' | 'full' | 'busy';

export interface StoreFault {
  kind: FaultKind;
  /** For people: "connection refused", "disk full", ... */
  cause: string;
  /**
   * True when the statement certainly did not run (the connection was never made, or the server
   * rolled it back), so that repeating it is safe whatever it does. False when the connection
   * broke while it ran: only an idempotent statement may be repeated then.
   */
  notRun: boolean;
}

/** Thrown by the stores once retries are spent: names the fault, keeps the driver's error as cause. */
export class StoreUnavailableError extends Error {
  constructor(
    readonly fault: StoreFault,
    options: { cause?: unknown } = {},
  ) {
    super(describeFault(fault), options);
    this.name = 'StoreUnavailableError';
  }
}

export function describeFault(fault: StoreFault): string {
  if (fault.kind === 'full') return `The database cannot write (${fault.cause}); retry once space is freed`;
  if (fault.kind === 'busy') return `The database is busy (${fault.cause}); retry shortly`;
  return `The database is unavailable (${fault.cause}); retry shortly`;
}

const NOT_RUN: Record<string, [FaultKind, string]> = {
  // Class 08 before a session exists, and the refusals of a server that cannot take one now.
  '08001': ['unavailable', 'cannot connect'],
  '08004': ['unavailable', 'connection rejected'],
  '53300': ['unavailable', 'too many connections'],
  '57P03': ['unavailable', 'the server is starting or shutting down'],
  // Rolled back by the server: the statement left nothing behind.
  '40001': ['busy', 'serialization failure'],
  '40P01': ['busy', 'deadlock detected'],
  '55P03': ['busy', 'lock not available'],
};

const BROKEN: Record<string, [FaultKind, string]> = {
  '57P01': ['unavailable', 'the server terminated the connection'],
  '57P02': ['unavailable', 'the server crashed'],
  '08000': ['unavailable', 'connection lost'],
  '08003': ['unavailable', 'connection lost'],
  '08006': ['unavailable', 'connection lost'],
  '53100': ['full', 'disk full'],
  '53200': ['full', 'out of memory'],
};

const SOCKET: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
};

/** The fault an error stands for (looking through `cause` and AggregateError), or undefined. */
export function storeFault(err: unknown, depth = 0): StoreFault | undefined {
  if (!(err instanceof Error) || depth > 4) return undefined;
  if (err instanceof StoreUnavailableError) return err.fault;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    const notRun = NOT_RUN[code];
    if (notRun) return { kind: notRun[0], cause: notRun[1], notRun: true };
    const broken = BROKEN[code];
    // 53100 is raised before anything is written, but the statement may be half done: not repeated.
    if (broken) return { kind: broken[0], cause: broken[1], notRun: false };
    const socket = SOCKET[code];
    if (socket) return { kind: 'unavailable', cause: socket, notRun: true };
    if (code === 'ECONNRESET' || code === 'EPIPE')
      return { kind: 'unavailable', cause: 'connection lost', notRun: false };
    if (code === 'ENOSPC') return { kind: 'full', cause: 'disk full', notRun: false };
  }
  const message = err.message;
  // node-postgres's own errors carry no code.
  if (/timeout exceeded when trying to connect|Connection terminated due to connection timeout/i.test(message)) {
    return { kind: 'unavailable', cause: 'connection timed out', notRun: true };
  }
  if (/Query read timeout/.test(message)) return { kind: 'unavailable', cause: 'no answer in time', notRun: false };
  if (/Connection terminated|not queryable|Client was closed/i.test(message)) {
    return { kind: 'unavailable', cause: 'connection lost', notRun: false };
  }
  if (err instanceof AggregateError) {
    for (const inner of err.errors) {
      const fault = storeFault(inner, depth + 1);
      if (fault) return fault;
    }
  }
  return err.cause === undefined ? undefined : storeFault(err.cause, depth + 1);
}

/** Whether a failed statement may run again: always when it never ran, else when repeating it is harmless. */
export function retryable(fault: StoreFault, idempotent: boolean): boolean {
  return fault.notRun || (idempotent && fault.kind !== 'full');
}
