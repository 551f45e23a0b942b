import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  AccountsReply,
  BalanceReply,
  BudgetBody,
  BudgetReply,
  CodeBatchBody,
  CodeBatchCodesReply,
  CodeBatchesReply,
  CreateAccountBody,
  CreditBody,
  LedgerEntryReply,
  LedgerQuery,
  LedgerReply,
  NewAccountReply,
  NewCodeBatchReply,
  PriceBody,
  PricesReply,
  PriceView,
} from '../api/billing.js';
import { ErrorReply } from '../api/error-reply.js';
import { notFound } from '../errors/errors.js';
import { toAccountView } from '../services/accounts/principal.js';
import { formatAmount } from '../services/billing/amount.js';
import type { PlatformServices } from '../services/platform-services.js';
import { accountScope, keyScope } from '../stores/money.js';
import { actorOf } from './audit-actor.js';
import { amountOf, balanceView, batchView, budgetOf, budgetView, ledgerView } from './money-views.js';

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const CodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) });
type Id = { id: string };

/**
 * Money over `/admin` (docs/billing.md): accounts and their balances, credits and debits, the
 * ledger, budgets of accounts and keys, prices, redemption codes. Registered inside the admin
 * scope, behind its admin-key check.
 */
export async function adminMoneyRoutes(scope: FastifyInstance, services: PlatformServices): Promise<void> {
  const common = { tags: ['admin'], security: [{ bearer: [] }] };
  const replies = <T>(ok: T) => ({ 200: ok, '4xx': ErrorReply, '5xx': ErrorReply });
  const { money, billing } = services;
  const currency = billing.currency;

  scope.get(
    '/accounts',
    { schema: { ...common, summary: 'List accounts with their balances', response: replies(AccountsReply) } },
    async () => {
      const accounts = await services.accounts.listAccounts();
      const rows = await Promise.all(
        accounts.map(async (a) => {
          const b = await services.store.money.balance(a.id);
          return { ...toAccountView(a), balance: formatAmount(b.balance), reserved: formatAmount(b.reserved) };
        }),
      );
      return { data: rows, currency };
    },
  );

  scope.post(
    '/accounts',
    {
      schema: {
        ...common,
        summary: 'Create an account (console holder); its first password is in this answer only',
        body: CreateAccountBody,
        response: replies(NewAccountReply),
      },
    },
    async (request) => {
      const { account, password } = await services.accounts.createAccount(
        request.body as Static<typeof CreateAccountBody>,
        actorOf(request),
      );
      return { ...toAccountView(account), password };
    },
  );

  scope.get(
    '/accounts/:id/balance',
    { schema: { ...common, summary: "An account's balance", params: IdParams, response: replies(BalanceReply) } },
    async (request) => {
      const { id } = request.params as Id;
      return balanceView(id, await money.balance(id), currency);
    },
  );

  scope.post(
    '/accounts/:id/credit',
    {
      schema: {
        ...common,
        summary: 'Credit (or, with a negative amount, debit) an account; the ledger entry',
        params: IdParams,
        body: CreditBody,
        response: replies(LedgerEntryReply),
      },
    },
    async (request) => {
      const { id } = request.params as Id;
      const body = request.body as Static<typeof CreditBody>;
      const amount = amountOf('amount', body.amount, { negative: true });
      return ledgerView(await money.credit(id, amount, body.note ?? '', actorOf(request)), currency);
    },
  );

  for (const kind of ['accounts', 'keys'] as const) {
    const scopeOf = async (id: string) => {
      if (kind === 'accounts') return accountScope(await money.requireAccount(id));
      if (!(await services.keys.get(id))) throw notFound(`API key ${id} does not exist`);
      return keyScope(id);
    };
    const noun = kind === 'accounts' ? 'an account' : 'an API key';
    scope.get(
      `/${kind}/:id/budget`,
      {
        schema: {
          ...common,
          summary: `The budget of ${noun}, and its spend`,
          params: IdParams,
          response: replies(BudgetReply),
        },
      },
      async (request) => {
        const scopeId = await scopeOf((request.params as Id).id);
        return budgetView(billing, scopeId, await money.budget(scopeId));
      },
    );
    scope.put(
      `/${kind}/:id/budget`,
      {
        schema: {
          ...common,
          summary: `Set the budget of ${noun} (total, per day, per month; null = none)`,
          params: IdParams,
          body: BudgetBody,
          response: replies(BudgetReply),
        },
      },
      async (request) => {
        const scopeId = await scopeOf((request.params as Id).id);
        const budget = budgetOf(request.body as Static<typeof BudgetBody>);
        await money.setBudget(scopeId, budget, actorOf(request));
        return budgetView(billing, scopeId, await money.budget(scopeId));
      },
    );
  }

  scope.get(
    '/ledger',
    {
      schema: {
        ...common,
        summary: 'Ledger entries, newest first',
        querystring: LedgerQuery,
        response: replies(LedgerReply),
      },
    },
    async (request) => {
      const q = request.query as Static<typeof LedgerQuery>;
      const limit = Math.min(1000, Math.max(1, Number(q.limit ?? 100)));
      const accountId = q.account === undefined ? undefined : await money.requireAccount(q.account);
      const entries = await money.ledger({
        accountId,
        kind: q.kind,
        since: q.since === undefined ? undefined : Number(q.since) * 1000,
        beforeId: q.before === undefined ? undefined : Number(q.before),
        limit,
      });
      return {
        data: entries.map((e) => ledgerView(e, currency)),
        next_before: entries.length === limit ? entries.at(-1)!.id : null,
      };
    },
  );

  scope.get(
    '/prices',
    { schema: { ...common, summary: 'Prices in force', response: replies(PricesReply) } },
    async () => ({
      currency,
      data: billing.prices.list(),
    }),
  );

  scope.put(
    '/prices/:code',
    {
      schema: {
        ...common,
        summary: 'Set the price of a model code or operation over the configured one ({} = free)',
        params: CodeParams,
        body: PriceBody,
        response: replies(PriceView),
      },
    },
    async (request) => {
      const { code } = request.params as { code: string };
      const body = request.body as Static<typeof PriceBody>;
      await money.setPrice(code, Object.keys(body).length === 0 ? null : body, actorOf(request));
      return billing.prices.view(code)!;
    },
  );

  scope.delete(
    '/prices/:code',
    {
      schema: {
        ...common,
        summary: "Drop the admin's price of a code: the configured one (or none) is in force again",
        params: CodeParams,
        response: replies(PricesReply),
      },
    },
    async (request) => {
      await money.resetPrice((request.params as { code: string }).code, actorOf(request));
      return { currency, data: billing.prices.list() };
    },
  );

  scope.get(
    '/codes',
    { schema: { ...common, summary: 'Redemption code batches', response: replies(CodeBatchesReply) } },
    async () => ({
      data: (await money.batches()).map((b) => batchView(b, currency)),
    }),
  );

  scope.post(
    '/codes',
    {
      schema: {
        ...common,
        summary: 'Create a batch of single-use redemption codes',
        body: CodeBatchBody,
        response: replies(NewCodeBatchReply),
      },
    },
    async (request) => {
      const body = request.body as Static<typeof CodeBatchBody>;
      const { batch, codes } = await money.createCodes(
        {
          amount: amountOf('amount', body.amount),
          count: body.count,
          expiresAt: body.expires_at === undefined ? undefined : body.expires_at * 1000,
          note: body.note ?? '',
        },
        actorOf(request),
      );
      return { ...batchView(batch, currency), codes };
    },
  );

  scope.get(
    '/codes/:id',
    {
      schema: { ...common, summary: 'A batch and its codes', params: IdParams, response: replies(CodeBatchCodesReply) },
    },
    async (request) => {
      const { id } = request.params as Id;
      const batch = (await money.batches()).find((b) => b.id === id);
      if (!batch) throw notFound(`Code batch ${id} does not exist`);
      const codes = await money.batchCodes(id);
      return {
        batch: batchView(batch, currency),
        codes: codes.map((c) => ({
          code: c.code,
          redeemed_by: c.redeemedBy ?? null,
          redeemed_at: c.redeemedAt === undefined ? null : Math.floor(c.redeemedAt / 1000),
        })),
      };
    },
  );
}
