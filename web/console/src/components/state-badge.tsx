import type { ModelState } from '../api';

const LABEL: Record<ModelState, string> = {
  ready: 'ready',
  downloading: 'downloading',
  failed: 'failed',
  not_loaded: 'not loaded',
};

/** A model's or deployment's state, with a download's progress as a bar. */
export function StateBadge({
  state,
  progress,
  error,
}: {
  state: ModelState;
  progress: number | null;
  error: string | null;
}) {
  return (
    <span class={`state ${state}`}>
      {LABEL[state]}
      {state === 'downloading' && progress !== null && (
        <>
          {' '}
          <progress max={100} value={progress} aria-label="Download progress">
            {progress}%
          </progress>{' '}
          {progress}%
        </>
      )}
      {state === 'failed' && error && <span class="state-error">{error}</span>}
    </span>
  );
}
