import { useEffect, useState } from 'preact/hooks';
import { api, type BillingOverview, type SessionInfo } from '../api';
import { CodesPanel } from './billing/codes';
import { LedgerTable } from './billing/ledger-table';
import { money } from './billing/money';
import { PricesPanel } from './billing/prices';
import { RedeemForm } from './billing/redeem-form';
import { TopUp } from './billing/top-up';

/** Balance, ledger and code redemption for everyone; top-ups, codes and prices for the admin. */
export function BillingPage({ session }: { session: SessionInfo }) {
  const isAdmin = session.principal.kind === 'admin';
  const [overview, setOverview] = useState<BillingOverview | undefined>();
  const [error, setError] = useState('');
  const [refresh, setRefresh] = useState(0);

  useEffect(() => {
    api
      .billing()
      .then(setOverview)
      .catch((e: Error) => setError(e.message));
  }, [refresh]);
  const moved = () => setRefresh(refresh + 1);

  const o = overview;
  const budget = o?.budget;
  return (
    <section aria-labelledby="billing-title">
      <h1 id="billing-title" tabIndex={-1}>
        Billing
      </h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {o && (
        <div class="card balance">
          <h2>{isAdmin ? 'The admin’s account' : 'Your account'}</h2>
          <dl class="figures">
            <div>
              <dt>Balance</dt>
              <dd>{money(o.balance, o.currency)}</dd>
            </div>
            <div>
              <dt>Held by calls in progress</dt>
              <dd>{money(o.reserved, o.currency)}</dd>
            </div>
            <div>
              <dt>Available</dt>
              <dd>{money(o.available, o.currency)}</dd>
            </div>
          </dl>
          {budget && (
            <p class="muted">
              Budget ({budget.time_zone}):{' '}
              {[
                budget.budget.daily && `${budget.spent.day} of ${budget.budget.daily} today`,
                budget.budget.monthly && `${budget.spent.month} of ${budget.budget.monthly} this month`,
                budget.budget.total && `${budget.spent.total} of ${budget.budget.total} in all`,
              ]
                .filter(Boolean)
                .join(' · ')}
            </p>
          )}
          {!o.priced && <p class="notice">Nothing is priced on this server: calls cost nothing and need no balance.</p>}
        </div>
      )}
      <RedeemForm onRedeemed={moved} />
      <h2>Movements</h2>
      <LedgerTable refresh={refresh} />
      {isAdmin && (
        <>
          <TopUp refresh={refresh} onMoved={moved} />
          <CodesPanel />
          <PricesPanel />
        </>
      )}
    </section>
  );
}
