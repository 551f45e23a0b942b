import { type Static, Type } from '@sinclair/typebox';
import { TOKENIZER_MODEL_CODES } from '../models/catalogue.js';
import { FunctionTool, MAX_TOOLS, RequestId, UserId } from './common.js';
import { TokenizerMessage } from './messages.js';
import { Discriminated, StringEnum } from './schema-helpers.js';

export const TokenizerBody = Type.Object({
  model: StringEnum(TOKENIZER_MODEL_CODES, { default: 'gen-4.6' }),
  messages: Type.Array(TokenizerMessage, { minItems: 1 }),
  // A discriminated list, so that a tool of another type is refused for its `type`, not for a missing `function`.
  tools: Type.Optional(Type.Array(Discriminated('type', [FunctionTool]), { maxItems: MAX_TOOLS })),
  request_id: Type.Optional(RequestId),
  user_id: Type.Optional(UserId),
});
export type TokenizerBody = Static<typeof TokenizerBody>;
