import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, with its attributes flattened. */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  kind: number;
  status: { code?: number; message?: string };
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** The base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
  url: string;
  spans: ReceivedSpan[];
  /** Every request received (exports are POSTs to /v1/traces). */
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  /** Waits until a span matching `find` has arrived. */
  waitFor(find: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

type AnyValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
};
const anyValue = (v: AnyValue): unknown =>
  v.stringValue ??
  (v.intValue !== undefined ? Number(v.intValue) : undefined) ??
  v.doubleValue ??
  v.boolValue ??
  v.arrayValue?.values?.map(anyValue);
const flatten = (list: { key: string; value: AnyValue }[] = []) =>
  Object.fromEntries(list.map((a) => [a.key, anyValue(a.value)]));

/** A loopback OTLP/HTTP receiver that keeps the spans posted to `/v1/traces` as JSON. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        resourceSpans?: {
          resource?: { attributes?: { key: string; value: AnyValue }[] };
          scopeSpans?: { spans?: (Omit<ReceivedSpan, 'attributes' | 'resource'> & { attributes?: never })[] }[];
        }[];
      };
      for (const rs of body.resourceSpans ?? []) {
        const resource = flatten(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({ ...s, parentSpanId: s.parentSpanId ?? '', attributes: flatten(s.attributes), resource });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    spans,
    requests,
    async waitFor(find, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = spans.find(find);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no such span; received: ${spans.map((s) => s.name).join(', ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
