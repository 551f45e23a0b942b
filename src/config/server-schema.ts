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
