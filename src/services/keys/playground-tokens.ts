import type { KeyAccess } from '../accounts/key-access.js';
import type { Principal } from '../accounts/principal.js';
import type { KeyService } from './key-service.js';

/** The key behind a principal's playground tokens, listed with their other keys under this name. */
export const PLAYGROUND_KEY_NAME = 'Console playground';
const TOKEN_MS = 60 * 60 * 1000;

export interface PlaygroundToken {
  /** `Authorization: Bearer <token>`: a signed token of the principal's playground key. */
  token: string;
  keyId: string;
  /** Unix milliseconds. */
  expiresAt: number;
}

/**
 * Credentials for the console's playground without pasting a key: each signed-in principal gets a
 * key of their own (created on first use, the general and coding endpoints, their default limits),
 * and the playground receives an hour-long signed token of it, never its secret. Revoking that key
 * in the console ends its tokens; the next token comes from a new one.
 */
export class PlaygroundTokens {
  constructor(
    private readonly access: KeyAccess,
    private readonly keys: KeyService,
    private readonly now: () => number = Date.now,
  ) {}

  /** `address`: the client's, recorded when the key is made. */
  async issue(principal: Principal, address?: string): Promise<PlaygroundToken> {
    const holder = principal.kind === 'admin' ? null : principal.account.id;
    const existing = (await this.access.list(principal)).find(
      (k) => k.name === PLAYGROUND_KEY_NAME && k.status === 'active' && k.role === 'user' && k.account_id === holder,
    );
    const keyId =
      existing?.id ??
      (await this.access.create(principal, { name: PLAYGROUND_KEY_NAME, endpoints: ['general', 'coding'] }, address))
        .view.id;
    const expiresAt = this.now() + TOKEN_MS;
    const token = await this.keys.signToken(keyId, expiresAt);
    if (token === undefined) throw new Error(`the playground key ${keyId} vanished while a token was made`);
    return { token, keyId, expiresAt };
  }
}
