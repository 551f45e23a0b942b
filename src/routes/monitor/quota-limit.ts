import type { FastifyInstance } from 'fastify';
import { ErrorReply } from '../../api/error-reply.js';
import { QuotaLimitReply } from '../../api/quota-limit-reply.js';
import { identifyKey } from '../../server/key-admission.js';
import { HOUR } from '../../services/limits/limiter.js';
import { storedWindow } from '../../services/limits/stored-windows.js';
import type { PlatformServices } from '../../services/platform-services.js';

/** Unit codes of the live plan's reply, as the tools that read it decode them: 3 hours, 6 weeks. */
const HOURS = 3;
const WEEKS = 6;

/** How many calls of each MCP tool's operation a window holds, under the live plan's tool codes. */
const TOOL_CODES: readonly [string, string][] = [
  ['search-prime', 'web_search'],
  ['web-reader', 'reader'],
];

/**
 * `GET /api/monitor/usage/quota/limit`: the coding plan's usage query, in the live platform's
 * envelope (`{code, msg, data: {limits, level}, success}`) that plan-tracking tools parse. Each of
 * the key's usage windows (its own or the configured defaults) is one `TOKENS_LIMIT` entry, the type
 * those tools show as the plan's rolling window: `usage` is the window's limit (requests),
 * `currentValue` the requests in it, `remaining`, `percentage` (0–100) and `nextResetTime` (Unix ms,
 * when the oldest request in it leaves). A key without windows has no entries. Reading it needs a
 * key (a bare key or `Bearer`), and is neither limited nor recorded: it spends nothing.
 */
export async function quotaLimitRoutes(app: FastifyInstance, options: { services: PlatformServices }): Promise<void> {
  const { services } = options;
  app.get(
    '/api/monitor/usage/quota/limit',
    {
      schema: {
        summary: "The coding plan's usage query: the key's usage windows",
        operationId: 'usage_quota_limit',
        tags: ['platform'],
        security: [{ bearer: [] }],
        response: { 200: QuotaLimitReply, '4xx': ErrorReply, '5xx': ErrorReply },
      },
    },
    async (request) => {
      // Checked as for the API (address, expiry, endpoint, account), but not admitted under limits:
      // a key at its limit can still see where it stands.
      await identifyKey(services, request, request.headers.authorization, ['general', 'coding']);
      const key = request.apiKey!;
      const { windows } = key.limits ?? services.config.limits;
      const now = Date.now();
      const limits = [];
      for (const window of windows) {
        const span = window.hours * HOUR;
        const since = now - span;
        const [{ count, oldest }, totals] = await Promise.all([
          storedWindow(services.store, (id, from) => services.usage.pending(id, from), key.id, since),
          services.store.usageTotals(key.id, since),
        ]);
        const weeks = window.hours % 168 === 0;
        limits.push({
          type: 'TOKENS_LIMIT' as const,
          unit: weeks ? WEEKS : HOURS,
          number: weeks ? window.hours / 168 : window.hours,
          usage: window.requests,
          currentValue: count,
          remaining: Math.max(0, window.requests - count),
          percentage: Math.min(100, Math.round((100 * count) / window.requests)),
          nextResetTime: (oldest ?? now) + span,
          usageDetails: TOOL_CODES.map(([modelCode, operation]) => ({
            modelCode,
            usage: totals.byOperation[operation]?.requests ?? 0,
          })),
        });
      }
      return { code: 200, msg: 'Operation successful', data: { limits, level: 'custom' }, success: true };
    },
  );
}
