import type { FastifyInstance } from 'fastify';
import { invalidField } from '../../errors/errors.js';
import { formatAmount } from '../../services/billing/amount.js';
import type { PlatformServices } from '../../services/platform-services.js';
import { DAY_MS } from '../../stores/account-rows.js';
import { principalOf } from './principal-of.js';
import { UsageQuery } from './schemas.js';

/** Requests, tokens and spend per UTC day, key and model, for the keys the principal may see. */
export async function usageRoutes(scope: FastifyInstance, services: PlatformServices): Promise<void> {
  scope.get('/usage', { schema: { hide: true, querystring: UsageQuery } }, async (request) => {
    const days = Number((request.query as { days?: string }).days ?? 30);
    if (days < 1 || days > 366) throw invalidField('days', 'must be between 1 and 366');
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const since = today - (days - 1) * DAY_MS;
    const { keys, rows } = await services.keyAccess.daily(principalOf(request), since);
    return {
      since: since / 1000,
      days,
      currency: services.billing.currency,
      keys: keys.map((k) => ({ id: k.id, name: k.name, status: k.status })),
      data: rows.map((r) => ({
        day: new Date(r.day).toISOString().slice(0, 10),
        key_id: r.keyId,
        model: r.model,
        requests: r.requests,
        errors: r.errors,
        prompt_tokens: r.promptTokens,
        completion_tokens: r.completionTokens,
        total_tokens: r.promptTokens + r.completionTokens,
        cost: formatAmount(r.cost),
      })),
    };
  });
}
