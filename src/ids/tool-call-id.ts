import { randomHex } from './random-hex.js';

/** `call_` + 24 lowercase hex characters (decisions.md §1): the same for every engine. */
export const newToolCallId = (): string => `call_${randomHex(12)}`;
