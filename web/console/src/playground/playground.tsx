import { useEffect, useState } from 'preact/hooks';
import { api, type PlaygroundToken } from '../api';
import { CurlCredential } from '../components/curl';
import { rememberedKeys } from '../key-memory';
import { ChatPanel } from './chat';
import { ImagePanel } from './images';
import { ReaderPanel } from './reader';
import { SearchPanel } from './search';
import { TranslatePanel } from './translate';

const TABS = [
  { id: 'chat', label: 'Chat', Panel: ChatPanel },
  { id: 'images', label: 'Images', Panel: ImagePanel },
  { id: 'reader', label: 'Reader', Panel: ReaderPanel },
  { id: 'search', label: 'Web search', Panel: SearchPanel },
  { id: 'translate', label: 'Translation', Panel: TranslatePanel },
] as const;

/** A token is asked for again when it has less than this left. */
const RENEW_MS = 5 * 60 * 1000;
const clock = (seconds: number) => new Date(seconds * 1000).toTimeString().slice(0, 5);

/**
 * Try the API: one tab per capability, each with the equivalent curl command. By default the calls
 * use a short-lived token the console issues to whoever signed in (shown in the curl commands, as it
 * expires within the hour); a key created in this tab, or one pasted, may be used instead.
 */
export function Playground() {
  const remembered = rememberedKeys();
  // 'token', 'paste', or the index of a key created in this tab.
  const [source, setSource] = useState('token');
  const [token, setToken] = useState<PlaygroundToken | undefined>();
  const [tokenError, setTokenError] = useState('');
  const [pasted, setPasted] = useState('');
  const [base, setBase] = useState('/paas/v4');
  const [tab, setTab] = useState<(typeof TABS)[number]['id']>('chat');

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const issue = () =>
      api.playgroundToken().then(
        (t) => {
          setToken(t);
          setTokenError('');
          timer = setTimeout(issue, Math.max(10_000, t.expires_at * 1000 - Date.now() - RENEW_MS));
        },
        (e: Error) => setTokenError(e.message),
      );
    void issue();
    return () => clearTimeout(timer);
  }, []);

  const apiKey =
    source === 'token'
      ? (token?.token ?? '')
      : source === 'paste'
        ? pasted.trim()
        : (remembered[Number(source)]?.key ?? '');

  const onKeyDown = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : undefined;
    if (next === undefined) return;
    const t = TABS[(next + TABS.length) % TABS.length]!;
    setTab(t.id);
    document.getElementById(`tab-${t.id}`)?.focus();
  };

  return (
    <section aria-labelledby="playground-title">
      <h1 id="playground-title" tabIndex={-1}>
        Playground
      </h1>
      <div class="card grid2">
        <div>
          <label for="pg-credential">Credentials</label>
          <select id="pg-credential" value={source} onChange={(e) => setSource(e.currentTarget.value)}>
            <option value="token">
              {token ? `Your short-lived token (until ${clock(token.expires_at)})` : 'Your short-lived token'}
            </option>
            {remembered.map((k, i) => (
              <option key={k.key} value={String(i)}>
                Key created in this tab: {k.name}
              </option>
            ))}
            <option value="paste">Paste a key…</option>
          </select>
          {source === 'token' && (
            <p class="muted small-note">
              {tokenError
                ? ''
                : `A signed token of your key “Console playground” (listed under Keys; revoking it ends its tokens), renewed while this page is open.`}
            </p>
          )}
        </div>
        {source === 'paste' && (
          <div>
            <label for="pg-key">API key</label>
            <input
              id="pg-key"
              type="password"
              autocomplete="off"
              placeholder="id.secret"
              value={pasted}
              onInput={(e) => setPasted(e.currentTarget.value)}
            />
          </div>
        )}
        <div>
          <label for="pg-base">Endpoint</label>
          <select id="pg-base" value={base} onChange={(e) => setBase(e.currentTarget.value)}>
            <option value="/paas/v4">general (/paas/v4)</option>
            <option value="/coding/paas/v4">coding (/coding/paas/v4)</option>
          </select>
        </div>
      </div>
      <div role="tablist" aria-label="Capability" class="tabs" onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`tab-${t.id}`}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {source === 'token' && tokenError && (
        <p class="error" role="alert">
          No token: {tokenError}
        </p>
      )}
      <CurlCredential.Provider value={source === 'token' ? token?.token : undefined}>
        {TABS.map(({ id, Panel }) => (
          <div key={id} id={`panel-${id}`} role="tabpanel" aria-labelledby={`tab-${id}`} hidden={tab !== id}>
            {tab === id &&
              (apiKey ? (
                <Panel apiKey={apiKey} base={base} />
              ) : (
                <p>{source === 'token' ? 'Issuing a token…' : 'Paste an API key first.'}</p>
              ))}
          </div>
        ))}
      </CurlCredential.Provider>
    </section>
  );
}
