import { ApiError } from '../errors/api-error.js';

/** The answer of an operation whose engine is not configured on this server. */
export function notConfigured(what: string, configKey: string): ApiError {
  return new ApiError(
    1211,
    `${what} is not configured on this server: add it under \`${configKey}\` in the configuration (see docs/configuration.md)`,
  );
}
