import { useRef, useState } from 'preact/hooks';
import { Curl } from '../components/curl';
import { callApi, streamApi } from './call';
import type { PanelProps } from './panel-props';

const MODELS = [
  'gen-4.6',
  'gen-4.7',
  'gen-4.7-flash',
  'gen-5',
  'gen-5.1',
  'gen-5.2',
  'gen-4.5',
  'gen-4.5-air',
  'gen-4.5-flash',
];

const SAMPLE_TOOLS = JSON.stringify(
  [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'The weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    },
  ],
  null,
  2,
);

interface ToolCall {
  id?: string;
  function?: { name?: string; arguments?: string };
}
interface Delta {
  content?: string | null;
  reasoning_content?: string | null;
  tool_calls?: (ToolCall & { index?: number })[];
}
interface Chunk {
  choices?: { delta?: Delta; message?: Delta; finish_reason?: string | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** Chat completions: streaming, reasoning shown apart from the answer, tools and JSON mode. */
export function ChatPanel({ apiKey, base }: PanelProps) {
  const [model, setModel] = useState('gen-4.6');
  const [prompt, setPrompt] = useState('Say hello in one short sentence.');
  const [stream, setStream] = useState(true);
  const [thinking, setThinking] = useState(false);
  const [json, setJson] = useState(false);
  const [useTools, setUseTools] = useState(false);
  const [tools, setTools] = useState(SAMPLE_TOOLS);
  const [reasoning, setReasoning] = useState('');
  const [answer, setAnswer] = useState('');
  const [calls, setCalls] = useState<ToolCall[]>([]);
  const [meta, setMeta] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | undefined>(undefined);

  const body = (() => {
    const b: Record<string, unknown> = { model, messages: [{ role: 'user', content: prompt }], stream };
    if (thinking) b['thinking'] = { type: 'enabled' };
    if (json) b['response_format'] = { type: 'json_object' };
    if (useTools) {
      try {
        b['tools'] = JSON.parse(tools);
      } catch {
        b['tools'] = 'invalid JSON';
      }
    }
    return b;
  })();

  const send = async (e: Event) => {
    e.preventDefault();
    setReasoning('');
    setAnswer('');
    setCalls([]);
    setMeta('');
    setError('');
    if (useTools && body['tools'] === 'invalid JSON') return setError('Tools: not valid JSON.');
    setBusy(true);
    abort.current = new AbortController();
    const path = `${base}/chat/completions`;
    try {
      if (stream) {
        const acc: ToolCall[] = [];
        await streamApi(
          apiKey,
          path,
          body,
          (data) => {
            const chunk = data as Chunk;
            const choice = chunk.choices?.[0];
            const d = choice?.delta;
            if (d?.reasoning_content) setReasoning((r) => r + d.reasoning_content);
            if (d?.content) setAnswer((a) => a + d.content);
            for (const tc of d?.tool_calls ?? []) {
              const at = tc.index ?? 0;
              if (!acc[at]) acc[at] = { function: { name: '', arguments: '' } };
              const slot = acc[at];
              if (tc.id) slot.id = tc.id;
              if (tc.function?.name) slot.function!.name = tc.function.name;
              if (tc.function?.arguments) slot.function!.arguments += tc.function.arguments;
              setCalls([...acc]);
            }
            if (choice?.finish_reason) setMeta(`finish: ${choice.finish_reason}`);
            if (chunk.usage) setMeta((m) => `${m} · ${chunk.usage!.total_tokens} tokens`);
          },
          abort.current.signal,
        );
      } else {
        const reply = await callApi<Chunk>(apiKey, 'POST', path, body);
        const m = reply.choices?.[0]?.message;
        setReasoning(m?.reasoning_content ?? '');
        setAnswer(m?.content ?? '');
        setCalls(m?.tool_calls ?? []);
        setMeta(`finish: ${reply.choices?.[0]?.finish_reason} · ${reply.usage?.total_tokens ?? 0} tokens`);
      }
    } catch (err) {
      if ((err as Error).name !== 'AbortError') setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel" onSubmit={send}>
      <label for="chat-model">Model</label>
      <input id="chat-model" list="chat-models" value={model} onInput={(e) => setModel(e.currentTarget.value)} />
      <datalist id="chat-models">
        {MODELS.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <label for="chat-prompt">Message</label>
      <textarea id="chat-prompt" rows={3} value={prompt} onInput={(e) => setPrompt(e.currentTarget.value)} />
      <fieldset class="inline">
        <legend>Options</legend>
        <label>
          <input type="checkbox" checked={stream} onChange={(e) => setStream(e.currentTarget.checked)} /> Stream
        </label>
        <label>
          <input type="checkbox" checked={thinking} onChange={(e) => setThinking(e.currentTarget.checked)} /> Thinking
        </label>
        <label>
          <input type="checkbox" checked={json} onChange={(e) => setJson(e.currentTarget.checked)} /> JSON mode
        </label>
        <label>
          <input type="checkbox" checked={useTools} onChange={(e) => setUseTools(e.currentTarget.checked)} /> Tools
        </label>
      </fieldset>
      {useTools && (
        <>
          <label for="chat-tools">Tools (JSON)</label>
          <textarea
            id="chat-tools"
            rows={8}
            class="mono"
            value={tools}
            onInput={(e) => setTools(e.currentTarget.value)}
          />
        </>
      )}
      <div class="actions">
        {busy && stream && (
          <button type="button" onClick={() => abort.current?.abort()}>
            Stop
          </button>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Send
        </button>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="output" aria-live="polite" aria-busy={busy}>
        {reasoning && (
          <details open class="reasoning">
            <summary>Reasoning</summary>
            <pre>{reasoning}</pre>
          </details>
        )}
        {(answer || busy) && (
          <>
            <h2 class="small-head">Answer</h2>
            <pre class="answer">{answer || '…'}</pre>
          </>
        )}
        {calls.length > 0 && (
          <>
            <h2 class="small-head">Tool calls</h2>
            <pre>{calls.map((c) => `${c.function?.name}(${c.function?.arguments ?? ''})`).join('\n')}</pre>
          </>
        )}
        {meta && <p class="muted">{meta}</p>}
      </div>
      <Curl path={`${base}/chat/completions`} body={body} stream={stream} />
    </form>
  );
}
