import { Type } from '@sinclair/typebox';

/** `audit:` the log of administrative acts (keys, accounts, sign-ins, console changes). */
export const AuditConfigSchema = Type.Object(
  {
    retention_days: Type.Number({
      minimum: 0,
      default: 365,
      description:
        'Days an audit record is kept; older ones are deleted by the store purger (`database.purge_interval_seconds`). 0 = kept forever.',
    }),
    anonymous_per_minute: Type.Integer({
      minimum: 0,
      default: 120,
      description:
        'Records a minute, per process, of acts with no signed-in actor (failed sign-ins); past it they are counted and one `audit.suppressed` record gives the count, so a flood of guesses cannot grow the log without bound.',
    }),
  },
  { additionalProperties: false, default: {} },
);
