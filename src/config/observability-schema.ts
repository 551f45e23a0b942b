import { Type } from '@sinclair/typebox';

/** `metrics:` and `tracing:` what the server reports about itself (Prometheus, OpenTelemetry). */
export const MetricsConfigSchema = Type.Object(
  {
    enabled: Type.Boolean({ default: false, description: 'Serve Prometheus metrics at `GET /metrics` (no auth).' }),
    port: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 65535,
        description: 'Serve `/metrics` on this port of `server.host` instead of the API port.',
      }),
    ),
  },
  { additionalProperties: false, default: {} },
);

export const TracingConfigSchema = Type.Object(
  {
    endpoint: Type.Optional(
      Type.String({
        pattern: '^https?://',
        description:
          'OpenTelemetry: base URL of an OTLP/HTTP receiver (env `OTEL_EXPORTER_OTLP_ENDPOINT`); spans go to `<endpoint>/v1/traces`. Unset (and no `traces_endpoint`) = tracing off, and nothing of OpenTelemetry is loaded.',
      }),
    ),
    traces_endpoint: Type.Optional(
      Type.String({
        pattern: '^https?://',
        description:
          'Full URL spans are posted to, instead of `<endpoint>/v1/traces` (env `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`).',
      }),
    ),
    service_name: Type.String({
      minLength: 1,
      default: 'gen-platform',
      description: '`service.name` of the spans (env `OTEL_SERVICE_NAME`).',
    }),
    headers: Type.Record(Type.String({ minLength: 1 }), Type.String(), {
      default: {},
      description:
        'Headers sent with every export, e.g. an API key of the receiver (env `OTEL_EXPORTER_OTLP_HEADERS`, `k=v,k2=v2`).',
    }),
    resource_attributes: Type.Record(Type.String({ minLength: 1 }), Type.String(), {
      default: {},
      description: 'More attributes of the resource, e.g. `deployment.environment` (env `OTEL_RESOURCE_ATTRIBUTES`).',
    }),
    sample_ratio: Type.Number({
      minimum: 0,
      maximum: 1,
      default: 1,
      description:
        "Share of traces recorded when the caller sent no `traceparent` (a caller's sampling decision is followed); env `OTEL_TRACES_SAMPLER_ARG` with `OTEL_TRACES_SAMPLER=parentbased_traceidratio`.",
    }),
  },
  { additionalProperties: false, default: {} },
);
