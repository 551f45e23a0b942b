import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type SessionInfo, setSession, whenSignedOut } from './api';
import { forgetKeys } from './key-memory';
import { AccountsPage } from './pages/accounts';
import { AuditPage } from './pages/audit';
import { BillingPage } from './pages/billing';
import { KeysPage } from './pages/keys';
import { ModelsPage } from './pages/models';
import { PasswordPage } from './pages/password';
import { SearchPage } from './pages/search';
import { SignIn } from './pages/sign-in';
import { UsagePage } from './pages/usage';
import { Playground } from './playground/playground';

type Route = 'keys' | 'usage' | 'billing' | 'models' | 'search' | 'playground' | 'accounts' | 'audit' | 'password';
const ROUTES: { route: Route; label: string; adminOnly?: boolean; accountOnly?: boolean }[] = [
  { route: 'keys', label: 'Keys' },
  { route: 'usage', label: 'Usage' },
  { route: 'billing', label: 'Billing' },
  { route: 'models', label: 'Models' },
  { route: 'search', label: 'Search', adminOnly: true },
  { route: 'playground', label: 'Playground' },
  { route: 'accounts', label: 'Accounts', adminOnly: true },
  { route: 'audit', label: 'Audit', adminOnly: true },
  { route: 'password', label: 'Password', accountOnly: true },
];

const currentRoute = (): Route => {
  const name = location.hash.replace(/^#\/?/, '');
  return (ROUTES.find((r) => r.route === name)?.route ?? 'keys') as Route;
};

export function App() {
  const [session, setState] = useState<SessionInfo | undefined | null>(null);
  const [notice, setNotice] = useState('');
  const [route, setRoute] = useState<Route>(currentRoute());
  const main = useRef<HTMLElement>(null);

  const signedOut = (reason: string) => {
    setSession(undefined);
    forgetKeys();
    setNotice(reason);
    setState(undefined);
  };

  useEffect(() => {
    whenSignedOut(signedOut);
    api
      .session()
      .then((info) => {
        setSession(info);
        setState(info);
      })
      .catch(() => setState(undefined));
    const onHash = () => setRoute(currentRoute());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  // After signing in and after a route change, move focus to the page's heading so screen readers announce it.
  useEffect(() => {
    main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [route, session]);

  if (session === null) return <p class="loading">Loading…</p>;
  if (!session) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(info) => {
          setSession(info);
          setNotice('');
          setState(info);
        }}
      />
    );
  }
  const isAdmin = session.principal.kind === 'admin';
  const visible = ROUTES.filter((r) => (isAdmin ? !r.accountOnly : !r.adminOnly));
  const page = visible.some((r) => r.route === route) ? route : 'keys';
  return (
    <>
      <button type="button" class="skip" onClick={() => main.current?.focus()}>
        Skip to content
      </button>
      <header class="top">
        <span class="brand">gen-platform</span>
        <nav aria-label="Console">
          {visible.map((r) => (
            <a key={r.route} href={`#/${r.route}`} aria-current={page === r.route ? 'page' : undefined}>
              {r.label}
            </a>
          ))}
        </nav>
        <span class="who">
          <span class="muted">{isAdmin ? 'Admin' : session.principal.email}</span>
          <button
            type="button"
            class="link"
            onClick={() => api.signOut().finally(() => signedOut('You have signed out.'))}
          >
            Sign out
          </button>
        </span>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {page === 'keys' && <KeysPage session={session} />}
        {page === 'usage' && <UsagePage />}
        {page === 'billing' && <BillingPage session={session} />}
        {page === 'models' && <ModelsPage />}
        {page === 'search' && <SearchPage />}
        {page === 'playground' && <Playground />}
        {page === 'accounts' && <AccountsPage />}
        {page === 'audit' && <AuditPage />}
        {page === 'password' && <PasswordPage />}
      </main>
    </>
  );
}
