import { Type } from '@sinclair/typebox';

/** One usage window of the key, as the live coding plan's usage query reports it. */
const QuotaLimitEntry = Type.Object({
  type: Type.Literal('TOKENS_LIMIT'),
  unit: Type.Integer({ description: '3: hours, 6: weeks.' }),
  number: Type.Integer({ description: 'How many units the window spans.' }),
  usage: Type.Integer({ description: 'Requests the window allows.' }),
  currentValue: Type.Integer({ description: 'Requests in the window now.' }),
  remaining: Type.Integer(),
  percentage: Type.Integer({ minimum: 0, maximum: 100 }),
  nextResetTime: Type.Integer({ description: 'Unix ms when the oldest request in the window leaves it.' }),
  usageDetails: Type.Array(Type.Object({ modelCode: Type.String(), usage: Type.Integer() })),
});

/** `GET /api/monitor/usage/quota/limit`: the live envelope that plan-tracking tools parse. */
export const QuotaLimitReply = Type.Object({
  code: Type.Integer(),
  msg: Type.String(),
  data: Type.Object({ limits: Type.Array(QuotaLimitEntry), level: Type.String() }),
  success: Type.Boolean(),
});
