import { randomBytes } from 'node:crypto';

/** `call_` + 24 lowercase hex characters (decisions.md §1). */
export const newToolCallId = (): string => `call_${randomBytes(12).toString('hex')}`;
