/**
 * The platform's tracing seam: what services and the edge need of OpenTelemetry, and nothing more,
 * so that nothing of OpenTelemetry is loaded while tracing is off (then there is no Tracer at all,
 * and callers skip their spans with one `undefined` check). The implementation is otel-tracer.ts.
 */

export type SpanAttributeValue = string | number | boolean | readonly string[];
export type SpanAttributes = Record<string, SpanAttributeValue | undefined>;

export interface Span {
  setAttributes(attributes: SpanAttributes): void;
  /** Marks the span failed: its status says error, with the error's type and message, and the exception. */
  fail(err: unknown): void;
  /** Marks the span failed without an exception: `type` is the semantic conventions' `error.type`. */
  markError(type: string, message: string): void;
  /** Ends the span (once; later calls do nothing). */
  end(): void;
  /** The W3C `traceparent` header that continues this span's trace in a server it calls. */
  traceparent(): string | undefined;
  /** Runs `fn` with this span as the parent of the spans started inside it, its async work included. */
  run<T>(fn: () => T): T;
}

export interface SpanOptions {
  kind?: 'server' | 'client' | 'internal';
  attributes?: SpanAttributes;
  /** Headers of an incoming request: a `traceparent` there makes this span continue the caller's trace. */
  incoming?: Readonly<Record<string, string | string[] | undefined>>;
}

export interface Tracer {
  /** A span, the child of the span current here (Span.run) unless `incoming` names a parent. */
  startSpan(name: string, options?: SpanOptions): Span;
  /** Sends the spans still buffered and stops (at shutdown). */
  shutdown(): Promise<void>;
}

/** Runs `work` in a span of its own, ending it when the work settles and marking it failed on a throw. */
export async function inSpan<T>(
  tracer: Tracer,
  name: string,
  options: SpanOptions,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const span = tracer.startSpan(name, options);
  try {
    return await span.run(() => work(span));
  } catch (err) {
    span.fail(err);
    throw err;
  } finally {
    span.end();
  }
}
