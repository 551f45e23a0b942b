import { useState } from 'preact/hooks';
import { Curl } from '../components/curl';
import { callApi } from './call';
import type { PanelProps } from './panel-props';
import { useApiCall } from './use-api-call';

interface AgentReply {
  choices: { messages: { content: { text: string } }[] }[];
  usage?: { total_tokens: number; total_calls: number };
}

const STRATEGIES = ['general', 'paraphrase', 'two_step', 'three_step', 'reflection', 'cot'];

/** The translation agent (`general_translation`). */
export function TranslatePanel({ apiKey, base }: PanelProps) {
  const [text, setText] = useState('Good morning! How are you today?');
  const [source, setSource] = useState('auto');
  const [target, setTarget] = useState('zh-CN');
  const [strategy, setStrategy] = useState('general');
  const path = `${base}/v1/agents`;
  const body = {
    agent_id: 'general_translation',
    messages: [{ role: 'user', content: [{ type: 'text', text }] }],
    custom_variables: { source_lang: source, target_lang: target, strategy },
  };

  const { result: reply, error, busy, submit } = useApiCall(() => callApi<AgentReply>(apiKey, 'POST', path, body));
  const result = reply?.choices[0]?.messages.map((m) => m.content.text).join('') ?? '';
  const meta = reply?.usage ? `${reply.usage.total_tokens} tokens, ${reply.usage.total_calls} model calls` : '';

  return (
    <form class="panel" onSubmit={submit}>
      <label for="tr-text">Text to translate</label>
      <textarea id="tr-text" rows={4} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      <div class="grid3">
        <div>
          <label for="tr-source">From</label>
          <input id="tr-source" value={source} onInput={(e) => setSource(e.currentTarget.value)} />
        </div>
        <div>
          <label for="tr-target">To</label>
          <input id="tr-target" value={target} onInput={(e) => setTarget(e.currentTarget.value)} />
        </div>
        <div>
          <label for="tr-strategy">Strategy</label>
          <select id="tr-strategy" value={strategy} onChange={(e) => setStrategy(e.currentTarget.value)}>
            {STRATEGIES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Translate
        </button>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {result && (
        <div class="output">
          <h2 class="small-head">Translation</h2>
          <pre>{result}</pre>
          {meta && <p class="muted">{meta}</p>}
        </div>
      )}
      <Curl path={path} body={body} />
    </form>
  );
}
