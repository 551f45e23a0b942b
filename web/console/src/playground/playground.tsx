import { useState } from 'preact/hooks';
import { rememberedKeys } from '../key-memory';
import { ChatPanel } from './chat';
import { ImagePanel } from './images';
import { ReaderPanel } from './reader';
import { SearchPanel } from './search';
import { TranslatePanel } from './translate';

export interface PanelProps {
  apiKey: string;
  /** `/paas/v4` or `/coding/paas/v4`. */
  base: string;
}

const TABS = [
  { id: 'chat', label: 'Chat', Panel: ChatPanel },
  { id: 'images', label: 'Images', Panel: ImagePanel },
  { id: 'reader', label: 'Reader', Panel: ReaderPanel },
  { id: 'search', label: 'Web search', Panel: SearchPanel },
  { id: 'translate', label: 'Translation', Panel: TranslatePanel },
] as const;

/** Try the API with a key: one tab per capability, each with the equivalent curl command. */
export function Playground() {
  const remembered = rememberedKeys();
  const [picked, setPicked] = useState(remembered[0]?.key ?? '');
  const [pasted, setPasted] = useState('');
  const [base, setBase] = useState('/paas/v4');
  const [tab, setTab] = useState<(typeof TABS)[number]['id']>('chat');
  const apiKey = pasted.trim() || picked;

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
        {remembered.length > 0 && (
          <div>
            <label for="pg-pick">Key created in this tab</label>
            <select id="pg-pick" value={picked} onChange={(e) => setPicked(e.currentTarget.value)}>
              {remembered.map((k) => (
                <option key={k.key} value={k.key}>
                  {k.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div>
          <label for="pg-key">API key</label>
          <input
            id="pg-key"
            type="password"
            autocomplete="off"
            placeholder={remembered.length ? 'or paste another key' : 'paste a key (id.secret)'}
            value={pasted}
            onInput={(e) => setPasted(e.currentTarget.value)}
          />
        </div>
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
      {TABS.map(({ id, Panel }) => (
        <div key={id} id={`panel-${id}`} role="tabpanel" aria-labelledby={`tab-${id}`} hidden={tab !== id}>
          {tab === id && (apiKey ? <Panel apiKey={apiKey} base={base} /> : <p>Paste or pick an API key first.</p>)}
        </div>
      ))}
    </section>
  );
}
