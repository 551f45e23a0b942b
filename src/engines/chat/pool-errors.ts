/**
 * Cause of an engine error meaning "this backend is up, but it refused this request" (an upstream's
 * 4xx other than 408 and 429). The pool then neither marks the deployment unhealthy nor retries the
 * request elsewhere: one bad request must not take deployments out of rotation for everyone.
 */
export class RequestRefusedByBackend extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RequestRefusedByBackend';
  }
}

export const isRefusedByBackend = (err: unknown): boolean =>
  err instanceof Error && err.cause instanceof RequestRefusedByBackend;
