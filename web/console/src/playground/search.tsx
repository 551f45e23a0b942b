import { useState } from 'preact/hooks';
import { Curl } from '../components/curl';
import { callApi } from './call';
import type { PanelProps } from './panel-props';
import { useApiCall } from './use-api-call';

interface SearchReply {
  search_result: { title: string; link: string; content: string; media?: string }[];
}

/** Web search over the server's index. */
export function SearchPanel({ apiKey, base }: PanelProps) {
  const [query, setQuery] = useState('');
  const [count, setCount] = useState(10);
  const body = { search_engine: 'search-prime', search_query: query, count };
  const {
    result: results,
    error,
    busy,
    submit,
  } = useApiCall(async () => (await callApi<SearchReply>(apiKey, 'POST', `${base}/web_search`, body)).search_result);

  return (
    <form class="panel" onSubmit={submit}>
      <div class="grid2">
        <div>
          <label for="search-query">Search query</label>
          <input id="search-query" type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        </div>
        <div>
          <label for="search-count">Results</label>
          <input
            id="search-count"
            type="number"
            min="1"
            max="50"
            value={count}
            onInput={(e) => setCount(Number(e.currentTarget.value))}
          />
        </div>
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Search
        </button>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {results && results.length === 0 && <p>No results.</p>}
      {results && results.length > 0 && (
        <ol class="results">
          {results.map((r) => (
            <li key={r.link}>
              <a href={r.link} rel="noreferrer noopener" target="_blank">
                {r.title || r.link}
              </a>
              <p>{r.content.slice(0, 300)}</p>
            </li>
          ))}
        </ol>
      )}
      <Curl path={`${base}/web_search`} body={body} />
    </form>
  );
}
