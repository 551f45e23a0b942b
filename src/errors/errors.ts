import { ApiError, type ApiErrorOptions } from './api-error.js';
import type { ErrorCode } from './codes.js';

/**
 * Named constructors for every code of the closed list (codes.ts): call sites say what went wrong,
 * never a number. Each takes the whole message, which names the field or cause and the rule.
 */
const coded =
  (code: ErrorCode) =>
  (message: string, options?: ApiErrorOptions): ApiError =>
    new ApiError(code, message, options);

export const internalError = (requestId: string) => coded(500)(`Internal error; request id ${requestId}`);

export const authenticationFailed = coded(1000);
export const missingAuthorization = coded(1001);
export const invalidToken = coded(1002);
export const tokenExpired = coded(1003);
export const keyRevoked = coded(1004);
/** 1113: the balance or a budget does not cover a call; the message names which and what is left. */
export const quotaExhausted = coded(1113);

export const malformedRequest = coded(1210);
export const unknownModel = coded(1211);
/** 1211 for a model code (or agent) the spec knows but this server's configuration does not serve. */
export const modelNotConfigured = (what: string, configKey: string) =>
  unknownModel(
    `${what} is not configured on this server: add it under \`${configKey}\` in the configuration (see docs/configuration.md)`,
  );
export const unsupportedCall = coded(1212);
export const missingField = (field: string) => coded(1213)(`Required field missing: ${field}`, { field });
/** 1214 with the field and the rule it breaks: `Invalid <field>: <rule>`. */
export const invalidField = (field: string, rule: string) => coded(1214)(`Invalid ${field}: ${rule}`, { field });
/** 1214 whose message is already written out (it names the field and the rule). */
export const invalidRequest = coded(1214);
export const conflictingFields = coded(1215);
export const forbidden = coded(1220);
export const unknownApi = coded(1222);
export const requestIdReused = (requestId: string) => coded(1231)(`request_id already used by this key: ${requestId}`);
export const notFound = coded(1233);
export const upstreamFailure = coded(1234);
export const contextExceeded = coded(1261);
export const unsafeContent = coded(1301);
export const tooManyConcurrent = coded(1302);
export const tooManyPerMinute = coded(1303);
export const overloaded = coded(1305);
export const usageWindowReached = coded(1308);
