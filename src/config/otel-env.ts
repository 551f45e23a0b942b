import { ConfigError } from './config-error.js';

type Json = Record<string, unknown>;
type Env = Readonly<Record<string, string | undefined>>;

/** `k=v,k2=v2` with percent-encoded values, as the OpenTelemetry environment variables carry them. */
function keyValues(name: string, text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of text.split(',')) {
    if (!item.trim()) continue;
    const eq = item.indexOf('=');
    if (eq <= 0) throw new ConfigError(`env ${name}: expected key=value pairs separated by commas, got "${item}"`);
    try {
      out[decodeURIComponent(item.slice(0, eq).trim())] = decodeURIComponent(item.slice(eq + 1).trim());
    } catch {
      throw new ConfigError(`env ${name}: "${item}" is not valid percent-encoding`);
    }
  }
  return out;
}

function sampleRatio(env: Env): number | undefined {
  const sampler = env['OTEL_TRACES_SAMPLER'];
  if (sampler === undefined || sampler === '') return undefined;
  if (sampler === 'always_on' || sampler === 'parentbased_always_on') return 1;
  if (sampler === 'always_off' || sampler === 'parentbased_always_off') return 0;
  if (sampler === 'traceidratio' || sampler === 'parentbased_traceidratio') {
    const arg = env['OTEL_TRACES_SAMPLER_ARG'];
    if (arg === undefined || arg === '') return 1;
    const ratio = Number(arg);
    if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
      throw new ConfigError(`env OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1, got "${arg}"`);
    return ratio;
  }
  throw new ConfigError(
    `env OTEL_TRACES_SAMPLER: "${sampler}" is not supported here; use parentbased_traceidratio (with OTEL_TRACES_SAMPLER_ARG), always_on or always_off`,
  );
}

/**
 * The standard OpenTelemetry variables, read with the rest of the environment at start-up, onto the
 * `tracing` section (env wins over the file, as elsewhere). Only OTLP over HTTP is spoken.
 */
export function applyOtelEnv(tracing: Json, env: Env): void {
  const set = (key: string, value: unknown) => {
    if (value !== undefined && value !== '') tracing[key] = value;
  };
  set('endpoint', env['OTEL_EXPORTER_OTLP_ENDPOINT']);
  set('traces_endpoint', env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']);
  set('service_name', env['OTEL_SERVICE_NAME']);
  set('sample_ratio', sampleRatio(env));
  for (const name of ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS']) {
    const text = env[name];
    if (text) tracing['headers'] = { ...(tracing['headers'] as object | undefined), ...keyValues(name, text) };
  }
  const resource = env['OTEL_RESOURCE_ATTRIBUTES'];
  if (resource) {
    const attributes = keyValues('OTEL_RESOURCE_ATTRIBUTES', resource);
    tracing['resource_attributes'] = { ...(tracing['resource_attributes'] as object | undefined), ...attributes };
    if (attributes['service.name'] && !env['OTEL_SERVICE_NAME']) tracing['service_name'] = attributes['service.name'];
  }
  const protocol = env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] || env['OTEL_EXPORTER_OTLP_PROTOCOL'];
  if (protocol && protocol !== 'http/json' && protocol !== 'http/protobuf')
    throw new ConfigError(
      `env OTEL_EXPORTER_OTLP_PROTOCOL: "${protocol}" is not supported; spans are sent as OTLP over HTTP (port 4318 of a collector)`,
    );
  const exporter = env['OTEL_TRACES_EXPORTER'];
  if (env['OTEL_SDK_DISABLED'] === 'true' || exporter === 'none') {
    delete tracing['endpoint'];
    delete tracing['traces_endpoint'];
  } else if (exporter && exporter !== 'otlp') {
    throw new ConfigError(`env OTEL_TRACES_EXPORTER: "${exporter}" is not supported; use otlp or none`);
  }
}
