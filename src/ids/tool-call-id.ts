import { randomHex } from './random-hex.js';

/** `call_` + 24 lowercase hex characters (docs/wire.md, "Ids"): the same for every engine. */
export const newToolCallId = (): string => `call_${randomHex(12)}`;
