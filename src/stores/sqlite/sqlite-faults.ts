import { type StoreFault, StoreUnavailableError } from '../faults.js';

/** The fault a SQLite result code stands for, or undefined (a constraint, a bug: not a fault). */
export function sqliteFault(err: unknown): StoreFault | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_FULL') return { kind: 'full', cause: 'disk full', notRun: false };
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return { kind: 'busy', cause: 'database locked', notRun: true };
  }
  if (code.startsWith('SQLITE_IOERR')) return { kind: 'unavailable', cause: 'I/O error', notRun: false };
  if (code === 'SQLITE_READONLY' || code.startsWith('SQLITE_READONLY_')) {
    return { kind: 'unavailable', cause: 'read-only file', notRun: true };
  }
  return undefined;
}

/** A driver error as the rest of the server reads faults: a StoreUnavailableError when it is one. */
export function asStoreError(err: unknown): unknown {
  const fault = sqliteFault(err);
  return fault ? new StoreUnavailableError(fault, { cause: err }) : err;
}
