import type { CancelSignal } from '../../util/cancel-signal.js';
/**
 * Content safety (docs/safety.md). Levels follow the API's `content_filter[].level`: 0 is the most
 * severe, 3 the least.
 *   0 unsafe: a block term, or the guard model's "unsafe"; the request is refused (1301).
 *   1 controversial: the guard model's "controversial" (Qwen3Guard); allowed and reported.
 *   2 unchecked: the guard model failed and `safety.on_guard_error` is `allow`; allowed and reported.
 *   3 safe: nothing found.
 */
export type SafetyLevel = 0 | 1 | 2 | 3;

/** Where the text sits: `user` input, `assistant` output (model inference), `history` (earlier turns). */
export type SafetyStage = 'user' | 'assistant' | 'history';

export interface SafetyResult {
  stage: SafetyStage;
  level: SafetyLevel;
  verdict: 'safe' | 'unsafe' | 'controversial' | 'unchecked';
  /** What decided: a block term, the guard model's categories. Never sent to clients. */
  reason: string | undefined;
}

/** A guard model's raw answer to one text (the chat-engine seam underneath). */
/** `tenant`: whose check it is (opaque, the key's id), so a shared engine serves tenants in turn. */
export type GuardClassifier = (
  text: string,
  stage: SafetyStage,
  signal: CancelSignal,
  tenant?: string,
) => Promise<string>;
