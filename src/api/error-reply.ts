import { type Static, Type } from '@sinclair/typebox';
import { ReplyObject } from './reply-helpers.js';

/** The body of every failed call (docs/wire.md, "Errors"): the spec's flat object and a nested copy. */
export const ErrorReply = ReplyObject(
  {
    code: Type.Integer({ description: 'Error code (docs/errors.md)' }),
    message: Type.String(),
    error: ReplyObject({
      code: Type.String({ description: 'The same code, as a string' }),
      message: Type.String(),
    }),
  },
  'A failed call',
);
export type ErrorReply = Static<typeof ErrorReply>;
