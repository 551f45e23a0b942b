import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { tracesUrl } from '../../src/telemetry/open-tracer.js';

const load = (env: Record<string, string>, file?: string) => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'otel-env-'));
  if (file) writeFileSync(path.join(cwd, 'gen-platform.yaml'), file);
  return loadConfig({ cwd, env }).config.tracing;
};

describe('tracing configuration: the tracing section and the standard OTEL_* variables', () => {
  it('is off by default', () => {
    const tracing = load({});
    expect(tracing).toEqual({ service_name: 'gen-platform', headers: {}, resource_attributes: {}, sample_ratio: 1 });
    expect(tracesUrl(tracing)).toBeUndefined();
  });

  it('turns on with OTEL_EXPORTER_OTLP_ENDPOINT (spans to /v1/traces) or the config key', () => {
    expect(tracesUrl(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }))).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(tracesUrl(load({}, 'tracing:\n  endpoint: http://c:4318\n'))).toBe('http://c:4318/v1/traces');
    expect(
      tracesUrl(
        load({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' }),
      ),
    ).toBe('http://c:4318/custom');
  });

  it('reads the service name, headers, resource attributes and sampler; the environment wins over the file', () => {
    const tracing = load(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_SERVICE_NAME: 'gateway',
        OTEL_EXPORTER_OTLP_HEADERS: 'api-key=s%3Dcret, x-team=ml',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=ignored',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
      },
      'tracing:\n  service_name: from-file\n  headers:\n    x-file: "1"\n',
    );
    expect(tracing).toMatchObject({
      endpoint: 'http://c:4318',
      service_name: 'gateway',
      headers: { 'x-file': '1', 'api-key': 's=cret', 'x-team': 'ml' },
      resource_attributes: { 'deployment.environment': 'prod' },
      sample_ratio: 0.25,
    });
    expect(load({ OTEL_RESOURCE_ATTRIBUTES: 'service.name=svc' }).service_name).toBe('svc');
  });

  it('OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none turn it off, whatever else is set', () => {
    const offs: Record<string, string>[] = [{ OTEL_SDK_DISABLED: 'true' }, { OTEL_TRACES_EXPORTER: 'none' }];
    for (const off of offs) {
      expect(
        tracesUrl(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', ...off }, 'tracing:\n  endpoint: http://d\n')),
      ).toBeUndefined();
    }
  });

  it('refuses what it cannot honour, naming the variable', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, /OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported/],
      [{ OTEL_TRACES_SAMPLER: 'jaeger_remote' }, /OTEL_TRACES_SAMPLER: "jaeger_remote"/],
      [
        { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' },
        /OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1/,
      ],
      [{ OTEL_EXPORTER_OTLP_HEADERS: 'novalue' }, /OTEL_EXPORTER_OTLP_HEADERS: expected key=value/],
      [{ OTEL_TRACES_EXPORTER: 'zipkin' }, /OTEL_TRACES_EXPORTER: "zipkin" is not supported/],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /tracing\.endpoint/],
    ];
    for (const [env, message] of cases) {
      expect(() => load(env)).toThrow(ConfigError);
      expect(() => load(env)).toThrow(message);
    }
  });
});
