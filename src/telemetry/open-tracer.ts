import type { Config } from '../config/schema.js';
import type { Tracer } from './tracer.js';

/** Where spans go: the receiver's traces URL, or undefined when tracing is off. */
export function tracesUrl(tracing: Config['tracing']): string | undefined {
  if (tracing.traces_endpoint) return tracing.traces_endpoint;
  if (tracing.endpoint) return `${tracing.endpoint.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

/**
 * The tracer of a configuration, or undefined when tracing is off. OpenTelemetry's packages are
 * imported here, on first use, and only when on: off, the server loads none of them.
 */
export async function openTracer(
  tracing: Config['tracing'],
  version: string,
  onExportError?: (err: unknown) => void,
): Promise<Tracer | undefined> {
  const url = tracesUrl(tracing);
  if (url === undefined) return undefined;
  const { startOtelTracer } = await import('./otel-tracer.js');
  return startOtelTracer({
    url,
    headers: tracing.headers,
    serviceName: tracing.service_name,
    serviceVersion: version,
    resourceAttributes: tracing.resource_attributes,
    sampleRatio: tracing.sample_ratio,
    onExportError,
  });
}
