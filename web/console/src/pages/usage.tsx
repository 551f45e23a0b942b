import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, type UsageReport } from '../api';
import { Chart, type ChartSeries } from '../components/chart';
import { downloadCsv } from '../components/csv';

const DAY = 86_400;

/** Requests, tokens and spend per day, one series per key and model, with the figures in a table and a CSV. */
export function UsagePage() {
  const [days, setDays] = useState(30);
  const [report, setReport] = useState<UsageReport | undefined>();
  const [error, setError] = useState('');

  useEffect(() => {
    api
      .usage(days)
      .then(setReport)
      .catch((e: Error) => setError(e.message));
  }, [days]);

  const charts = useMemo(() => {
    if (!report) return undefined;
    const x = Array.from({ length: report.days }, (_, i) => report.since + i * DAY);
    const index = new Map(x.map((t, i) => [new Date(t * 1000).toISOString().slice(0, 10), i]));
    const names = new Map(report.keys.map((k) => [k.id, k.name]));
    const requests = new Map<string, ChartSeries>();
    const tokens = new Map<string, ChartSeries>();
    const spend = new Map<string, ChartSeries>();
    for (const row of report.data) {
      const label = `${names.get(row.key_id) ?? row.key_id} · ${row.model || 'no model'}`;
      for (const [map, value] of [
        [requests, row.requests],
        [tokens, row.total_tokens],
        // Drawn only: the table and the CSV keep the exact decimal.
        [spend, Number(row.cost)],
      ] as const) {
        const s = map.get(label) ?? { label, values: x.map(() => 0) };
        s.values[index.get(row.day) ?? 0]! += value;
        map.set(label, s);
      }
    }
    const spent = [...spend.values()].filter((series) => series.values.some((v) => v > 0));
    return { x, requests: [...requests.values()], tokens: [...tokens.values()], spend: spent, names };
  }, [report]);

  return (
    <section aria-labelledby="usage-title">
      <div class="page-head">
        <h1 id="usage-title" tabIndex={-1}>
          Usage
        </h1>
        <div>
          <label for="usage-days" class="inline-label">
            Period
          </label>
          <select id="usage-days" value={days} onChange={(e) => setDays(Number(e.currentTarget.value))}>
            <option value="7">Last 7 days</option>
            <option value="30">Last 30 days</option>
            <option value="90">Last 90 days</option>
          </select>
        </div>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {charts && report && report.data.length === 0 && <p>No requests in this period.</p>}
      {charts && report && report.data.length > 0 && (
        <>
          <div class="charts">
            <Chart title="Requests per day" days={charts.x} series={charts.requests} />
            <Chart title="Tokens per day" days={charts.x} series={charts.tokens} />
            {charts.spend.length > 0 && (
              <Chart title={`Spend per day (${report.currency})`} days={charts.x} series={charts.spend} fractional />
            )}
          </div>
          <div class="actions">
            <button type="button" onClick={() => exportCsv(report, charts.names)}>
              Download CSV
            </button>
          </div>
          <div class="table-wrap">
            <table>
              <caption>Requests, tokens and spend per day, key and model (UTC days)</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Key</th>
                  <th scope="col">Model</th>
                  <th scope="col" class="num">
                    Requests
                  </th>
                  <th scope="col" class="num">
                    Errors
                  </th>
                  <th scope="col" class="num">
                    Prompt tokens
                  </th>
                  <th scope="col" class="num">
                    Completion tokens
                  </th>
                  <th scope="col" class="num">
                    Cost ({report.currency})
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.data.map((r) => (
                  <tr key={`${r.day}${r.key_id}${r.model}`}>
                    <td data-label="Day">{r.day}</td>
                    <td data-label="Key">{charts.names.get(r.key_id) ?? r.key_id}</td>
                    <td data-label="Model">{r.model || '—'}</td>
                    <td data-label="Requests" class="num">
                      {r.requests}
                    </td>
                    <td data-label="Errors" class="num">
                      {r.errors}
                    </td>
                    <td data-label="Prompt tokens" class="num">
                      {r.prompt_tokens}
                    </td>
                    <td data-label="Completion tokens" class="num">
                      {r.completion_tokens}
                    </td>
                    <td data-label={`Cost (${report.currency})`} class="num">
                      {r.cost}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function exportCsv(report: UsageReport, names: Map<string, string>): void {
  downloadCsv(
    `usage-${report.days}d.csv`,
    ['day', 'key_id', 'key', 'model', 'requests', 'errors', 'prompt_tokens', 'completion_tokens', 'cost', 'currency'],
    report.data.map((r) => [
      r.day,
      r.key_id,
      names.get(r.key_id) ?? '',
      r.model,
      r.requests,
      r.errors,
      r.prompt_tokens,
      r.completion_tokens,
      r.cost,
      report.currency,
    ]),
  );
}
