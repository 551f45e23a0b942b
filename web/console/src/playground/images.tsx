import { useRef, useState } from 'preact/hooks';
import { Curl } from '../components/curl';
import { callApi } from './call';
import type { PanelProps } from './panel-props';

const SIZES = ['1280x1280', '1568x1056', '1056x1568', '1472x1088', '1088x1472', '1728x960', '960x1728'];

interface TaskResult {
  id: string;
  task_status: 'PROCESSING' | 'SUCCESS' | 'FAIL';
  image_result?: { url: string }[];
  error?: { message: string };
}

/** Image generation, synchronous or as an asynchronous task polled until it is done. */
export function ImagePanel({ apiKey, base }: PanelProps) {
  const [prompt, setPrompt] = useState('A lighthouse on a cliff at dawn, watercolour');
  const [size, setSize] = useState(SIZES[0]!);
  const [async, setAsync] = useState(true);
  const [status, setStatus] = useState('');
  const [url, setUrl] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const cancelled = useRef(false);
  const body = { model: 'gen-image', prompt, size };
  const path = async ? `${base}/async/images/generations` : `${base}/images/generations`;

  const run = async (e: Event) => {
    e.preventDefault();
    setUrl('');
    setError('');
    setBusy(true);
    cancelled.current = false;
    try {
      if (!async) {
        setStatus('Generating…');
        const reply = await callApi<{ data: { url: string }[] }>(apiKey, 'POST', path, body);
        setUrl(reply.data[0]?.url ?? '');
        setStatus('Done.');
        return;
      }
      const task = await callApi<TaskResult>(apiKey, 'POST', path, body);
      setStatus(`Task ${task.id}: ${task.task_status}`);
      for (let i = 0; i < 600 && !cancelled.current; i++) {
        await new Promise((r) => setTimeout(r, 1000));
        const result = await callApi<TaskResult>(apiKey, 'GET', `${base}/async-result/${task.id}`);
        setStatus(`Task ${task.id}: ${result.task_status} (polled ${i + 1}×)`);
        if (result.task_status === 'SUCCESS') return setUrl(result.image_result?.[0]?.url ?? '');
        if (result.task_status === 'FAIL') return setError(result.error?.message ?? 'The task failed.');
      }
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel" onSubmit={run}>
      <label for="img-prompt">Prompt</label>
      <textarea id="img-prompt" rows={3} value={prompt} onInput={(e) => setPrompt(e.currentTarget.value)} />
      <div class="grid2">
        <div>
          <label for="img-size">Size</label>
          <select id="img-size" value={size} onChange={(e) => setSize(e.currentTarget.value)}>
            {SIZES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
        <label class="check">
          <input type="checkbox" checked={async} onChange={(e) => setAsync(e.currentTarget.checked)} /> Asynchronous
          (poll the task)
        </label>
      </div>
      <div class="actions">
        {busy && async && (
          <button
            type="button"
            onClick={() => {
              cancelled.current = true;
            }}
          >
            Stop polling
          </button>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Generate
        </button>
      </div>
      <p class="muted" role="status">
        {status}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {url && <img class="generated" src={url} alt={`Generated: ${prompt}`} />}
      <Curl path={path} body={body} />
      {async && <Curl method="GET" path={`${base}/async-result/{id}`} />}
    </form>
  );
}
