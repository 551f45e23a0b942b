import { Type } from '@sinclair/typebox';

/**
 * Which proxies' `X-Forwarded-*` headers are believed. Only configured hops: trusting every hop
 * (`true`) would let any client name its own address (and so escape the per-address sign-in
 * limits), so it is not accepted.
 */
export const TrustProxySchema = Type.Union(
  [
    Type.Literal(false),
    Type.Integer({ minimum: 1, maximum: 16 }),
    Type.Array(Type.String({ pattern: '^([0-9A-Fa-f:.]+(/[0-9]{1,3})?|loopback|linklocal|uniquelocal)$' }), {
      minItems: 1,
    }),
  ],
  {
    default: false,
    description:
      'Proxies whose `X-Forwarded-For`/`-Proto`/`-Host` are believed: `false` (none), the number of proxy hops in front of the server (e.g. `1` behind one ingress), or the proxies\' addresses and CIDRs (`["10.0.0.0/8"]`, `loopback`). `true` (every hop) is refused: any client could then set its own address.',
  },
);

/** The HTTP server's timeouts (`server.*`), spread into the server section. */
export const SERVER_TIMEOUTS = {
  headers_timeout_seconds: Type.Number({
    exclusiveMinimum: 0,
    default: 20,
    description: "Longest wait for a request's headers after its connection opened or its previous request ended.",
  }),
  request_timeout_seconds: Type.Number({
    exclusiveMinimum: 0,
    default: 60,
    description: 'Longest wait to receive a whole request (headers and body); a slower client gets 408 and is closed.',
  }),
  keep_alive_timeout_seconds: Type.Number({
    exclusiveMinimum: 0,
    default: 72,
    description: 'An idle keep-alive connection is closed after this long.',
  }),
  idle_timeout_seconds: Type.Number({
    minimum: 0,
    default: 900,
    description:
      'A connection on which nothing is read or written for this long is closed and its work cancelled (longer than any non-streamed answer takes to compute); 0 = never.',
  }),
  stream_stall_seconds: Type.Number({
    exclusiveMinimum: 0,
    default: 60,
    description:
      'A stream whose client has not read what was sent for this long (the socket stays full) is closed and its engine work freed.',
  }),
};
