import { Type } from '@sinclair/typebox';

/**
 * `usage:` how usage records reach the store. Every record is first appended to
 * a journal file under the data directory, before the last byte of its reply is written; the store
 * gets it in batches after, retried until it takes it, and the journal is replayed at start-up.
 */
export const UsageConfigSchema = Type.Object(
  {
    journal_sync: Type.Union([Type.Literal('write'), Type.Literal('fsync')], {
      default: 'write',
      description:
        "`write`: a reply's usage record is written to the journal (the operating system holds it) before the reply's last byte, which survives the server being killed (kill -9) but not a power loss; `fsync`: also flushed to the disk, one fsync for all the replies ending together, which survives a power loss too and adds a disk flush (a few ms here) to every reply.",
    }),
    max_queued: Type.Integer({
      minimum: 1,
      default: 100_000,
      description:
        'Usage records held in memory while the store cannot take them (about 300 bytes each); past it, new records stay in the journal only and are replayed from it once the store is back. None is dropped.',
    }),
    retry_max_seconds: Type.Number({
      exclusiveMinimum: 0,
      default: 30,
      description:
        'Longest wait between two attempts to write usage records to a failing store (the wait starts at 0.1 s and doubles).',
    }),
  },
  { additionalProperties: false, default: {} },
);
