import { useState } from 'preact/hooks';
import { Curl } from '../components/curl';
import { callApi } from './call';
import type { PanelProps } from './panel-props';
import { useApiCall } from './use-api-call';

interface ReaderReply {
  reader_result: { title: string; url: string; description: string; content: string };
}

/** The reader: a page's main content as Markdown or text. */
export function ReaderPanel({ apiKey, base }: PanelProps) {
  const [url, setUrl] = useState('https://example.com/');
  const [format, setFormat] = useState('markdown');
  const body = { url, return_format: format };
  const { result, error, busy, submit } = useApiCall(
    async () => (await callApi<ReaderReply>(apiKey, 'POST', `${base}/reader`, body)).reader_result,
  );

  return (
    <form class="panel" onSubmit={submit}>
      <div class="grid2">
        <div>
          <label for="reader-url">Page URL</label>
          <input id="reader-url" type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        </div>
        <div>
          <label for="reader-format">Format</label>
          <select id="reader-format" value={format} onChange={(e) => setFormat(e.currentTarget.value)}>
            <option value="markdown">Markdown</option>
            <option value="text">Text</option>
          </select>
        </div>
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Read
        </button>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {result && (
        <div class="output">
          <h2 class="small-head">{result.title || result.url}</h2>
          <pre>{result.content}</pre>
        </div>
      )}
      <Curl path={`${base}/reader`} body={body} />
    </form>
  );
}
