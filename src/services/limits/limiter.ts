import type { KeyLimits } from '../../config/schema.js';

/** Frees the concurrency slot of one admitted request; calling it again does nothing. */
export type Release = () => void;

/**
 * The limiter seam (docs/architecture.md, "Seams"): admits a request under its key's limits or throws the API
 * error that refuses it (1302 concurrency, 1303 per minute, 1308 usage window, 1234 when the
 * limiter's backend cannot be reached). Every implementation passes test/contracts/limiter.contract.ts.
 */
export interface Limiter {
  admit(keyId: string, own: KeyLimits | undefined): Promise<Release>;
  /** For /health: the limiter's own backend (a shared counter store) and whether it is connected; absent when it has none. */
  backend?(): { name: string; up: boolean };
  close(): Promise<void>;
}

export const noRelease: Release = () => {};

export const MINUTE = 60_000;
export const HOUR = 3_600_000;

/** True when a key's limits ask for nothing to be counted. */
export const unlimited = (limits: KeyLimits): boolean =>
  limits.concurrent <= 0 && limits.requests_per_minute <= 0 && limits.windows.length === 0;
