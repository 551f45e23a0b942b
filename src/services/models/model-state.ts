/** Where a model stands, as `GET /models` reports it. */
export type ModelState =
  | { state: 'ready' }
  | { state: 'downloading'; progress: number }
  | { state: 'failed'; error: string }
  | { state: 'not_loaded' };

const RANK: Record<ModelState['state'], number> = { ready: 0, not_loaded: 1, downloading: 2, failed: 3 };

/**
 * A model served by several deployments opens them all (a pool), so it stands where its furthest
 * behind deployment stands; of two downloads, the one with less done.
 */
export function furthestBehind(states: readonly ModelState[]): ModelState {
  let worst: ModelState = { state: 'ready' };
  for (const s of states) {
    if (RANK[s.state] > RANK[worst.state]) worst = s;
    else if (s.state === 'downloading' && worst.state === 'downloading' && s.progress < worst.progress) worst = s;
  }
  return worst;
}
