import { useState } from 'preact/hooks';
import { api, formatTime, type IndexJob, type SearchOverview } from '../api';
import { usePolling } from '../components/use-polling';

const PAGE = 50;

function JobRow({ job }: { job: IndexJob }) {
  const what =
    job.kind === 'crawl'
      ? `${job.indexed} pages indexed, ${job.pending} queued`
      : `${job.pending} lines read, ${job.indexed} imported`;
  return (
    <tr>
      <th scope="row" data-label="Job">
        {job.kind === 'crawl' ? 'Crawl' : 'Import'} <span class="mono target-inline">{job.source}</span>
      </th>
      <td data-label="Collection">{job.collection ?? (job.kind === 'crawl' ? 'web' : "each line's own")}</td>
      <td data-label="State">
        <span class={`state job-${job.state}`}>{job.state}</span>
      </td>
      <td data-label="Progress">
        {what}
        {job.failed > 0 && <span class="error-text">, {job.failed} failed</span>}
        {job.messages.length > 0 && <span class="small-note muted">{job.messages.at(-1)}</span>}
      </td>
      <td data-label="Started">{formatTime(job.started_at)}</td>
    </tr>
  );
}

/** The search index that `web_search` answers from: its collections and documents, crawls and imports. */
export function SearchPage() {
  const [overview, setOverview] = useState<SearchOverview | undefined>();
  const [collection, setCollection] = useState('');
  const [offset, setOffset] = useState(0);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [url, setUrl] = useState('');
  const [maxPages, setMaxPages] = useState('50');
  const [depth, setDepth] = useState('2');
  const [crawlCollection, setCrawlCollection] = useState('');
  const [file, setFile] = useState<File | undefined>();
  const [importCollection, setImportCollection] = useState('');
  const [busy, setBusy] = useState(false);

  const load = () =>
    api.search(collection, offset).then(
      (o) => {
        setOverview(o);
        setError('');
      },
      (e: Error) => setError(e.message),
    );
  const running = overview?.jobs.some((j) => j.state === 'running') ?? false;
  // Every second while a job runs, to show its progress; every 10 seconds otherwise.
  usePolling(load, running ? 1000 : 10_000, [collection, offset, running]);

  const start = async (what: () => Promise<IndexJob>, done: string) => {
    setBusy(true);
    setError('');
    try {
      const job = await what();
      setNotice(`${done}: ${job.source}. Its progress is below.`);
      await load();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const total = overview?.collections.reduce((n, c) => n + c.documents, 0) ?? 0;
  const shown = collection ? (overview?.collections.find((c) => c.collection === collection)?.documents ?? 0) : total;

  return (
    <section aria-labelledby="search-title">
      <div class="page-head">
        <h1 id="search-title" tabIndex={-1}>
          Search index
        </h1>
      </div>
      <p class="muted">
        <code>web_search</code> with <code>search-prime</code> answers from this index (unless the configuration names
        an upstream engine). A fresh install has no documents: crawl a site or import a JSONL file of{' '}
        <code>{'{url, title, content, published, site}'}</code> lines.
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <p class="sr-only" role="status">
        {notice}
      </p>
      {notice && <p class="notice">{notice}</p>}

      <div class="cards">
        <form
          class="card"
          aria-labelledby="crawl-title"
          onSubmit={(e) => {
            e.preventDefault();
            void start(
              () =>
                api.crawl({
                  url: url.trim(),
                  max_pages: Number(maxPages),
                  depth: Number(depth),
                  ...(crawlCollection.trim() ? { collection: crawlCollection.trim() } : {}),
                }),
              'Crawl started',
            );
          }}
        >
          <h2 id="crawl-title">Crawl a site</h2>
          <label for="crawl-url">Start URL</label>
          <input
            id="crawl-url"
            type="url"
            required
            placeholder="https://docs.example.com/"
            value={url}
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
          <div class="grid3">
            <div>
              <label for="crawl-pages">Pages at most</label>
              <input
                id="crawl-pages"
                type="number"
                min={1}
                max={1000}
                value={maxPages}
                onInput={(e) => setMaxPages(e.currentTarget.value)}
              />
            </div>
            <div>
              <label for="crawl-depth">Link depth</label>
              <input
                id="crawl-depth"
                type="number"
                min={0}
                max={5}
                value={depth}
                onInput={(e) => setDepth(e.currentTarget.value)}
              />
            </div>
            <div>
              <label for="crawl-collection">Collection</label>
              <input
                id="crawl-collection"
                placeholder="web"
                value={crawlCollection}
                onInput={(e) => setCrawlCollection(e.currentTarget.value)}
              />
            </div>
          </div>
          <p class="muted small-note">Same host only; robots.txt is honoured.</p>
          <button type="submit" class="primary" disabled={busy}>
            Start crawl
          </button>
        </form>
        <form
          class="card"
          aria-labelledby="import-title"
          onSubmit={(e) => {
            e.preventDefault();
            if (file) void start(() => api.importJsonl(file, importCollection.trim()), 'Import started');
          }}
        >
          <h2 id="import-title">Import a JSONL file</h2>
          <label for="import-file">JSONL file</label>
          <input
            id="import-file"
            type="file"
            accept=".jsonl,.ndjson,application/x-ndjson"
            required
            onChange={(e) => setFile(e.currentTarget.files?.[0])}
          />
          <label for="import-collection">Collection</label>
          <input
            id="import-collection"
            placeholder="each line's own, else web"
            value={importCollection}
            onInput={(e) => setImportCollection(e.currentTarget.value)}
          />
          <p class="muted small-note">Up to 64 MB here; larger files: gen-platform index import FILE.</p>
          <button type="submit" class="primary" disabled={busy || !file}>
            Import
          </button>
        </form>
      </div>

      {overview && overview.jobs.length > 0 && (
        <>
          <h2>Crawls and imports</h2>
          <div class="table-wrap">
            <table>
              <caption class="sr-only">Crawls and imports</caption>
              <thead>
                <tr>
                  <th scope="col">Job</th>
                  <th scope="col">Collection</th>
                  <th scope="col">State</th>
                  <th scope="col">Progress</th>
                  <th scope="col">Started</th>
                </tr>
              </thead>
              <tbody>
                {overview.jobs.map((j) => (
                  <JobRow key={j.id} job={j} />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}

      <h2>Documents</h2>
      {overview && overview.collections.length === 0 && <p>The index is empty.</p>}
      {overview && overview.collections.length > 0 && (
        <>
          <div class="row">
            <label for="doc-collection" class="inline-label">
              Collection
            </label>
            <select
              id="doc-collection"
              value={collection}
              onChange={(e) => {
                setCollection(e.currentTarget.value);
                setOffset(0);
              }}
            >
              <option value="">All ({total} documents)</option>
              {overview.collections.map((c) => (
                <option key={c.collection} value={c.collection}>
                  {c.collection} ({c.documents})
                </option>
              ))}
            </select>
          </div>
          <div class="table-wrap">
            <table>
              <caption class="sr-only">Documents in the index, the latest first</caption>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">URL</th>
                  <th scope="col">Collection</th>
                  <th scope="col">Published</th>
                  <th scope="col" class="num">
                    Characters
                  </th>
                </tr>
              </thead>
              <tbody>
                {overview.documents.map((d) => (
                  <tr key={`${d.collection} ${d.url}`}>
                    <th scope="row" data-label="Title">
                      {d.title || <span class="muted">(no title)</span>}
                    </th>
                    <td data-label="URL" class="mono target-inline">
                      {d.url}
                    </td>
                    <td data-label="Collection">{d.collection}</td>
                    <td data-label="Published">{d.published ?? '—'}</td>
                    <td data-label="Characters" class="num">
                      {d.chars}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div class="actions">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              Newer
            </button>
            <span class="muted">
              {shown === 0 ? 0 : offset + 1}–{offset + overview.documents.length} of {shown}
            </span>
            <button type="button" disabled={offset + PAGE >= shown} onClick={() => setOffset(offset + PAGE)}>
              Older
            </button>
          </div>
        </>
      )}
    </section>
  );
}
