import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BudgetBody, CodeBatchBody, CreditBody, PriceBody, RedeemBody } from '../../api/billing.js';
import { forbidden, notFound } from '../../errors/errors.js';
import type { Principal } from '../../services/accounts/principal.js';
import { formatAmount } from '../../services/billing/amount.js';
import type { PlatformServices } from '../../services/platform-services.js';
import { ADMIN_ACCOUNT, accountScope, type Budget, keyScope } from '../../stores/money.js';
import { actorOf } from '../audit-actor.js';
import { amountOf, balanceView, batchView, budgetOf, budgetView, ledgerView } from '../money-views.js';
import { principalOf, requireAdmin } from './principal-of.js';
import { IdParams } from './schemas.js';

const hide = { hide: true };
const LedgerPage = Type.Object(
  {
    before: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$' })),
    account: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);
const CodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) });
const PAGE = 50;

const limit = (v: number | undefined) => (v === undefined ? null : formatAmount(v));
const limitsView = (b: Budget | undefined) =>
  b ? { total: limit(b.total), daily: limit(b.daily), monthly: limit(b.monthly) } : null;

/** The account a principal's money is: the admin's own, or the holder's. */
const accountOfPrincipal = (p: Principal): string => (p.kind === 'admin' ? ADMIN_ACCOUNT : p.account.id);

/**
 * The Billing page and the money beside keys and usage: every principal sees its own account's
 * balance, ledger and keys' spend, and redeems codes; the admin also tops up any account, makes
 * code batches, sets budgets and edits prices.
 */
export async function billingRoutes(scope: FastifyInstance, services: PlatformServices): Promise<void> {
  const { money, billing } = services;
  const currency = billing.currency;
  const admin = (request: FastifyRequest) => {
    requireAdmin(request);
    return actorOf(request);
  };

  scope.get('/billing', { schema: hide }, async (request) => {
    const account = accountOfPrincipal(principalOf(request));
    const budget = await money.budget(accountScope(account));
    return {
      ...balanceView(account, await money.balance(account), currency),
      budget: budget ? await budgetView(billing, accountScope(account), budget) : null,
      priced: billing.active,
    };
  });

  scope.get('/billing/ledger', { schema: { ...hide, querystring: LedgerPage } }, async (request) => {
    const q = request.query as Static<typeof LedgerPage>;
    const principal = principalOf(request);
    let account = accountOfPrincipal(principal);
    if (q.account !== undefined) {
      if (principal.kind !== 'admin' && q.account !== account)
        throw forbidden('An account holder sees their own ledger');
      account = await money.requireAccount(q.account);
    }
    const entries = await money.ledger({
      accountId: account,
      beforeId: q.before === undefined ? undefined : Number(q.before),
      limit: PAGE,
    });
    return {
      data: entries.map((e) => ledgerView(e, currency)),
      next_before: entries.length === PAGE ? entries.at(-1)!.id : null,
    };
  });

  scope.post('/billing/redeem', { schema: { ...hide, body: RedeemBody } }, async (request) => {
    const account = accountOfPrincipal(principalOf(request));
    const entry = await money.redeem((request.body as { code: string }).code, account, actorOf(request));
    return ledgerView(entry, currency);
  });

  /** Spend and budget of each key the principal sees (the Keys page). */
  scope.get('/billing/keys', { schema: hide }, async (request) => {
    const keys = await services.keyAccess.visibleKeys(principalOf(request));
    const scopes = keys.map((k) => keyScope(k.key.id));
    const [spend, budgets] = await Promise.all([
      services.store.money.spendOf(scopes, billing.calendar.periodsOf(Date.now())),
      services.store.money.budgets(),
    ]);
    return {
      currency,
      time_zone: billing.options.config.time_zone,
      data: keys.map(({ key }) => {
        const s = spend.get(keyScope(key.id)) ?? { total: 0, day: 0, month: 0 };
        const b = budgets.get(keyScope(key.id));
        return {
          key_id: key.id,
          spent: { day: formatAmount(s.day), month: formatAmount(s.month), total: formatAmount(s.total) },
          budget: limitsView(b),
        };
      }),
    };
  });

  scope.get('/billing/accounts', { schema: hide }, async (request) => {
    requireAdmin(request);
    const holders = await services.accounts.listAccounts();
    const rows = [{ id: ADMIN_ACCOUNT, name: 'Admin', email: null as string | null, disabled: false }].concat(
      holders.map((a) => ({ id: a.id, name: a.name, email: a.email, disabled: a.disabledAt !== undefined })),
    );
    const budgets = await services.store.money.budgets();
    return {
      currency,
      data: await Promise.all(
        rows.map(async (a) => ({
          ...a,
          ...balanceView(a.id, await services.store.money.balance(a.id), currency),
          budget: limitsView(budgets.get(accountScope(a.id))),
        })),
      ),
    };
  });

  scope.post(
    '/billing/accounts/:id/credit',
    { schema: { ...hide, params: IdParams, body: CreditBody } },
    async (request) => {
      const by = admin(request);
      const body = request.body as Static<typeof CreditBody>;
      const amount = amountOf('amount', body.amount, { negative: true });
      const entry = await money.credit((request.params as { id: string }).id, amount, body.note ?? '', by);
      return ledgerView(entry, currency);
    },
  );

  for (const kind of ['accounts', 'keys'] as const) {
    scope.post(
      `/billing/${kind}/:id/budget`,
      { schema: { ...hide, params: IdParams, body: BudgetBody } },
      async (request) => {
        const by = admin(request);
        const { id } = request.params as { id: string };
        let target = keyScope(id);
        if (kind === 'accounts') target = accountScope(await money.requireAccount(id));
        else if (!(await services.keys.get(id))) throw notFound(`API key ${id} does not exist`);
        await money.setBudget(target, budgetOf(request.body as Static<typeof BudgetBody>), by);
        return budgetView(billing, target, await money.budget(target));
      },
    );
  }

  scope.get('/billing/codes', { schema: hide }, async (request) => {
    requireAdmin(request);
    return { data: (await money.batches()).map((b) => batchView(b, currency)) };
  });

  scope.post('/billing/codes', { schema: { ...hide, body: CodeBatchBody } }, async (request) => {
    const by = admin(request);
    const body = request.body as Static<typeof CodeBatchBody>;
    const { batch, codes } = await money.createCodes(
      {
        amount: amountOf('amount', body.amount),
        count: body.count,
        expiresAt: body.expires_at === undefined ? undefined : body.expires_at * 1000,
        note: body.note ?? '',
      },
      by,
    );
    return { ...batchView(batch, currency), codes };
  });

  scope.get('/billing/codes/:id', { schema: { ...hide, params: IdParams } }, async (request) => {
    requireAdmin(request);
    const codes = await money.batchCodes((request.params as { id: string }).id);
    return {
      data: codes.map((c) => ({
        code: c.code,
        redeemed_by: c.redeemedBy ?? null,
        redeemed_at: c.redeemedAt === undefined ? null : Math.floor(c.redeemedAt / 1000),
      })),
    };
  });

  scope.get('/billing/prices', { schema: hide }, async (request) => {
    requireAdmin(request);
    return { currency, data: billing.prices.list() };
  });

  scope.post('/billing/prices/:code', { schema: { ...hide, params: CodeParams, body: PriceBody } }, async (request) => {
    const by = admin(request);
    const { code } = request.params as { code: string };
    const body = request.body as Static<typeof PriceBody>;
    await money.setPrice(code, Object.keys(body).length === 0 ? null : body, by);
    return billing.prices.view(code);
  });

  scope.delete('/billing/prices/:code', { schema: { ...hide, params: CodeParams } }, async (request) => {
    const by = admin(request);
    await money.resetPrice((request.params as { code: string }).code, by);
    return { currency, data: billing.prices.list() };
  });
}
