import type { FastifyRequest } from 'fastify';
import { forbidden } from '../errors/errors.js';
import { accountLimiterId, NOT_KNOWN } from '../services/keys/account-policies.js';
import { noRelease } from '../services/limits/limiter.js';
import type { PlatformServices } from '../services/platform-services.js';
import type { Endpoint } from '../stores/types.js';

/**
 * Who calls, as every part of the API checks it: the key behind `credential` (revocation, expiry,
 * and its `allowed_ips` against the client's address), one of `endpoints` on it, and its account's
 * shared policy. Sets `request.apiKey` and `request.keyAccount`.
 */
export async function identifyKey(
  services: PlatformServices,
  request: FastifyRequest,
  credential: string | undefined,
  endpoints: readonly Endpoint[],
): Promise<void> {
  const key = await services.keys.authenticate(credential, request.ip);
  if (!endpoints.some((e) => key.endpoints.includes(e))) {
    throw forbidden(`This API key has no permission for the ${endpoints.join(' or ')} endpoint`);
  }
  const known = services.accountPolicies.knownForKey(key.id);
  request.keyAccount = known === NOT_KNOWN ? await services.accountPolicies.forKey(key.id) : known;
  request.apiKey = key;
}

/**
 * Admits an identified request under the key's own limits, then those its account's keys share
 * (fair shares: account, then key); the function that releases both.
 */
export async function admitKey(services: PlatformServices, request: FastifyRequest): Promise<() => void> {
  const key = request.apiKey!;
  const held = request.keyAccount;
  const release = await services.limiter.admit(key.id, key.limits);
  if (!held) return release;
  let releaseAccount = noRelease;
  try {
    releaseAccount = await services.limiter.admit(accountLimiterId(held.accountId), held.limits);
  } catch (err) {
    release();
    throw err;
  }
  return () => {
    release();
    releaseAccount();
  };
}
