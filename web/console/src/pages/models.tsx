import { useState } from 'preact/hooks';
import { api, type ModelInfo } from '../api';
import { StateBadge } from '../components/state-badge';
import { usePolling } from '../components/use-polling';

const REFRESH_MS = 2000;

/** The models this server serves: each code, its deployments and engines, state and load, live. */
export function ModelsPage() {
  const [models, setModels] = useState<ModelInfo[] | undefined>();
  const [error, setError] = useState('');
  usePolling(
    () =>
      api.models().then(
        (m) => {
          setModels(m);
          setError('');
        },
        (e: Error) => setError(e.message),
      ),
    REFRESH_MS,
  );
  // A deployment may serve several codes (the embedded default serves them all): count it once.
  const busy = [
    ...new Map(models?.flatMap((m) => m.deployments.map((d) => [d.deployment, d.in_flight] as const))).values(),
  ].reduce((n, x) => n + x, 0);

  return (
    <section aria-labelledby="models-title">
      <div class="page-head">
        <h1 id="models-title" tabIndex={-1}>
          Models
        </h1>
      </div>
      <p class="muted">
        The model codes this server serves, with the deployments behind each. A remote model downloads in the
        background; until it is ready, calls to it answer 503 with Retry-After. Updated every {REFRESH_MS / 1000}{' '}
        seconds.
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {models && (
        <p role="status">
          {models.length} model codes, {models.filter((m) => m.state === 'ready').length} ready, {busy} requests in
          flight.
        </p>
      )}
      {models && models.length === 0 && (
        <p>No model is served: configure `models` or `embedded.default_model` (docs/configuration.md).</p>
      )}
      {models && models.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Models and their deployments</caption>
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">State</th>
                <th scope="col" class="num">
                  In flight
                </th>
                <th scope="col" class="num">
                  Waiting
                </th>
                <th scope="col">Deployments</th>
              </tr>
            </thead>
            <tbody>
              {models.map((m) => (
                <tr key={m.code}>
                  <th scope="row" data-label="Model">
                    <code>{m.code}</code>
                    <span class="badge">{m.type}</span>
                  </th>
                  <td data-label="State">
                    <StateBadge state={m.state} progress={m.progress} error={m.error} />
                  </td>
                  <td data-label="In flight" class="num">
                    {m.in_flight}
                    {m.deployments.some((d) => d.shared_by > 1) && (
                      <span class="muted small-note"> shared with {m.deployments[0]!.shared_by - 1} other codes</span>
                    )}
                  </td>
                  <td data-label="Waiting" class="num">
                    {m.waiting}
                  </td>
                  <td data-label="Deployments">
                    <ul class="deployments">
                      {m.deployments.map((d) => (
                        <li key={d.deployment}>
                          <span class="mono">{d.deployment}</span> <span class="badge">{d.engine}</span>
                          {d.target && <span class="target mono">{d.target}</span>}
                          {m.deployments.length > 1 && (
                            <>
                              {' '}
                              <StateBadge state={d.state} progress={d.progress} error={d.error} />{' '}
                              <span class="muted">{d.in_flight} in flight</span>
                            </>
                          )}
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
