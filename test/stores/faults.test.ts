import { describe, expect, it } from 'vitest';
import { DependencyStatus } from '../../src/stores/dependency-status.js';
import { describeFault, retryable, StoreUnavailableError, storeFault } from '../../src/stores/faults.js';
import { asStoreError, sqliteFault } from '../../src/stores/sqlite/sqlite-faults.js';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('storeFault', () => {
  it.each([
    ['57P01', 'unavailable', 'the server terminated the connection', false],
    ['53300', 'unavailable', 'too many connections', true],
    ['40001', 'busy', 'serialization failure', true],
    ['53100', 'full', 'disk full', false],
    ['ECONNREFUSED', 'unavailable', 'connection refused', true],
    ['ENOSPC', 'full', 'disk full', false],
  ])('reads %s as %s (%s)', (code, kind, cause, notRun) => {
    expect(storeFault(coded(code))).toEqual({ kind, cause, notRun });
  });

  it("reads node-postgres's own messages, causes and aggregates", () => {
    expect(storeFault(new Error('Connection terminated unexpectedly'))?.notRun).toBe(false);
    expect(storeFault(new Error('timeout exceeded when trying to connect'))?.cause).toBe('connection timed out');
    expect(storeFault(new Error('wrapped', { cause: coded('ECONNREFUSED') }))?.cause).toBe('connection refused');
    expect(storeFault(new AggregateError([coded('ECONNREFUSED')]))?.cause).toBe('connection refused');
  });

  it('leaves other errors alone (a bug or bad data is a 500)', () => {
    expect(storeFault(coded('23505', 'duplicate key'))).toBeUndefined();
    expect(storeFault(new TypeError('x'))).toBeUndefined();
    expect(storeFault('a string')).toBeUndefined();
  });

  it('retries what never ran, and the rest only when idempotent (never a full disk)', () => {
    expect(retryable({ kind: 'unavailable', cause: 'c', notRun: true }, false)).toBe(true);
    expect(retryable({ kind: 'unavailable', cause: 'c', notRun: false }, false)).toBe(false);
    expect(retryable({ kind: 'unavailable', cause: 'c', notRun: false }, true)).toBe(true);
    expect(retryable({ kind: 'full', cause: 'c', notRun: false }, true)).toBe(false);
  });

  it('names the cause in the message the API sends', () => {
    const err = new StoreUnavailableError({ kind: 'unavailable', cause: 'connection refused', notRun: true });
    expect(err.message).toBe('The database is unavailable (connection refused); retry shortly');
    expect(describeFault({ kind: 'full', cause: 'disk full', notRun: false })).toBe(
      'The database cannot write (disk full); retry once space is freed',
    );
  });
});

describe('sqliteFault', () => {
  it.each([
    ['SQLITE_FULL', 'full', 'disk full', false],
    ['SQLITE_BUSY', 'busy', 'database locked', true],
    ['SQLITE_BUSY_SNAPSHOT', 'busy', 'database locked', true],
    ['SQLITE_IOERR_WRITE', 'unavailable', 'I/O error', false],
    ['SQLITE_READONLY', 'unavailable', 'read-only file', true],
  ])('reads %s as %s (%s)', (code, kind, cause, notRun) => {
    expect(sqliteFault(coded(code))).toEqual({ kind, cause, notRun });
    expect(storeFault(asStoreError(coded(code)))).toEqual({ kind, cause, notRun });
  });

  it('leaves constraint errors and bugs as they are', () => {
    const constraint = coded('SQLITE_CONSTRAINT_UNIQUE');
    expect(sqliteFault(constraint)).toBeUndefined();
    expect(asStoreError(constraint)).toBe(constraint);
  });
});

describe('DependencyStatus', () => {
  it('goes down on a fault, up on the next success, counting errors and reconnects', () => {
    const s = new DependencyStatus('database');
    expect(s.failed(coded('23505'))).toBeUndefined();
    expect(s.up).toBe(true);
    s.failed(coded('ECONNREFUSED'));
    expect(s.current).toMatchObject({ state: 'down', cause: 'connection refused' });
    s.succeeded(false);
    expect(s.up).toBe(true);
    expect(s.errors.unavailable).toBe(1);
    expect(s.reconnects).toBe(1);
  });

  it('stays full until a success that says there is room; a busy moment changes nothing', () => {
    const s = new DependencyStatus('database');
    s.failed(asStoreError(coded('SQLITE_BUSY')));
    expect(s.up).toBe(true);
    s.failed(asStoreError(coded('SQLITE_FULL')));
    s.succeeded(false);
    expect(s.current.state).toBe('full');
    s.succeeded(true);
    expect(s.up).toBe(true);
  });
});
