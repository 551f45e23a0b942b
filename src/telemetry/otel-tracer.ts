import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, Span as OtelSpan } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { createUpstreamFetcher } from '../net/fetcher.js';
import type { Span, SpanAttributes, SpanOptions, Tracer } from './tracer.js';

export interface OtelTracerOptions {
  /** The receiver's traces URL (OTLP over HTTP, JSON). */
  url: string;
  headers: Record<string, string>;
  serviceName: string;
  serviceVersion: string;
  resourceAttributes: Record<string, string>;
  /** Share of new traces recorded; a caller's sampling decision is followed. */
  sampleRatio: number;
  /** Where a failed export is said (at most once a minute). */
  onExportError?: ((err: unknown) => void) | undefined;
}

/** Spans wait at most this long before they are sent (they also go when a batch is full). */
const EXPORT_DELAY_MS = 2_000;
const EXPORT_TIMEOUT_MS = 10_000;
/** A receiver's answer is a small JSON (partial success); its body is read no further than this. */
const RECEIVER_ANSWER_BYTES = 64 * 1024;

/**
 * The Tracer on OpenTelemetry's SDK, batching spans to an OTLP/HTTP receiver. The SDK's packages are
 * imported here, so that only a server with tracing on loads them (open-tracer.ts). The current
 * span rides on an AsyncLocalStorage of this tracer's own: no global context manager, propagator
 * or provider is registered, so nothing else in the process is changed.
 */
export async function startOtelTracer(options: OtelTracerOptions): Promise<Tracer> {
  const [api, core, resources, sdk, otlp] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/otlp-transformer'),
  ]);
  // OTLP/HTTP with a JSON body of known length, posted on src/net's upstream fetcher (the receiver
  // the operator configured): every receiver reads it, the simplest included (OpenTelemetry's own
  // exporter streams it chunked). A failed batch is dropped.
  const receiver = createUpstreamFetcher();
  const url = new URL(options.url);
  const exporter: SpanExporter = {
    export(spans, done) {
      const body = otlp.JsonTraceSerializer.serializeRequest(spans);
      if (!body) return done({ code: core.ExportResultCode.FAILED, error: new Error('spans could not be serialized') });
      receiver
        .send(
          { url, method: 'POST', headers: { ...options.headers, 'content-type': 'application/json' }, body },
          {
            maxBytes: RECEIVER_ANSWER_BYTES,
            idleTimeoutMs: EXPORT_TIMEOUT_MS,
            signal: AbortSignal.timeout(EXPORT_TIMEOUT_MS),
          },
        )
        .then(
          (res) => {
            if (res.status >= 200 && res.status < 300) done({ code: core.ExportResultCode.SUCCESS });
            else
              done({
                code: core.ExportResultCode.FAILED,
                error: new Error(`the receiver answered HTTP ${res.status}`),
              });
          },
          (error: Error) => done({ code: core.ExportResultCode.FAILED, error }),
        );
    },
    shutdown: () => receiver.close(),
  };
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({
      ...options.resourceAttributes,
      'service.name': options.serviceName,
      'service.version': options.serviceVersion,
    }),
    sampler: new sdk.ParentBasedSampler({ root: new sdk.TraceIdRatioBasedSampler(options.sampleRatio) }),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: EXPORT_DELAY_MS,
        maxQueueSize: 4096,
        maxExportBatchSize: 512,
        exportTimeoutMillis: EXPORT_TIMEOUT_MS,
      }),
    ],
  });
  if (options.onExportError) {
    const report = options.onExportError;
    let last = 0;
    core.setGlobalErrorHandler((err) => {
      if (Date.now() - last < 60_000) return;
      last = Date.now();
      report(err);
    });
  }
  const tracer = provider.getTracer('gen-platform', options.serviceVersion);
  const propagator = new core.W3CTraceContextPropagator();
  const current = new AsyncLocalStorage<Context>();
  const KINDS = { server: api.SpanKind.SERVER, client: api.SpanKind.CLIENT, internal: api.SpanKind.INTERNAL };

  const clean = (attributes: SpanAttributes) => {
    const out: Record<string, string | number | boolean | string[]> = {};
    for (const [key, value] of Object.entries(attributes)) {
      if (value !== undefined) out[key] = value as string | number | boolean | string[];
    }
    return out;
  };

  class SdkSpan implements Span {
    private ended = false;
    private readonly context: Context;

    constructor(private readonly span: OtelSpan) {
      this.context = api.trace.setSpan(api.ROOT_CONTEXT, span);
    }

    setAttributes(attributes: SpanAttributes): void {
      this.span.setAttributes(clean(attributes));
    }

    fail(err: unknown): void {
      const error = err instanceof Error ? err : new Error(String(err));
      const code = (err as { code?: unknown }).code;
      this.span.recordException(error);
      this.markError(code === undefined ? error.name : String(code), error.message);
    }

    markError(type: string, message: string): void {
      this.span.setAttribute('error.type', type);
      this.span.setStatus({ code: api.SpanStatusCode.ERROR, message });
    }

    end(): void {
      if (this.ended) return;
      this.ended = true;
      this.span.end();
    }

    traceparent(): string | undefined {
      const carrier: Record<string, string> = {};
      propagator.inject(this.context, carrier, api.defaultTextMapSetter);
      return carrier['traceparent'];
    }

    run<T>(fn: () => T): T {
      return current.run(this.context, fn);
    }
  }

  return {
    startSpan(name: string, o: SpanOptions = {}): Span {
      const parent = o.incoming
        ? propagator.extract(api.ROOT_CONTEXT, o.incoming, api.defaultTextMapGetter)
        : (current.getStore() ?? api.ROOT_CONTEXT);
      const span = tracer.startSpan(
        name,
        { kind: KINDS[o.kind ?? 'internal'], ...(o.attributes ? { attributes: clean(o.attributes) } : {}) },
        parent,
      );
      return new SdkSpan(span);
    },
    async shutdown(): Promise<void> {
      await provider.shutdown();
    },
  };
}
