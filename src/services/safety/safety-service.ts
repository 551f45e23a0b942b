import { unsafeContent, upstreamFailure } from '../../errors/errors.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import { compileBlockTerms } from './block-terms.js';
import { parseGuardVerdict } from './guard-verdict.js';
import type { GuardClassifier, SafetyResult, SafetyStage } from './types.js';

export interface SafetyOptions {
  blockTerms: readonly string[];
  guard?: GuardClassifier | undefined;
  onGuardError: 'refuse' | 'allow';
  log?: { warn(details: Record<string, unknown>, message: string): void };
}

/** The safety policy: block terms first (no model call for a refused text), then the guard model. */
export class SafetyService {
  private readonly blocked: (text: string) => string | undefined;

  constructor(private readonly options: SafetyOptions) {
    this.blocked = compileBlockTerms(options.blockTerms);
  }

  async check(
    text: string,
    stage: SafetyStage,
    signal: CancelSignal = new AbortController().signal,
    tenant?: string,
  ): Promise<SafetyResult> {
    const term = this.blocked(text);
    if (term !== undefined) return { stage, level: 0, verdict: 'unsafe', reason: `block term "${term}"` };
    const guard = this.options.guard;
    if (!guard) return { stage, level: 3, verdict: 'safe', reason: undefined };
    let answer: string;
    try {
      answer = await guard(text, stage, signal, tenant);
    } catch (err) {
      if (signal.aborted) throw err;
      return this.guardFailed(stage, 'the guard model failed', err);
    }
    const verdict = parseGuardVerdict(answer);
    if (!verdict) return this.guardFailed(stage, `the guard model's answer is not a verdict: ${answer.slice(0, 80)}`);
    const reason =
      verdict.categories.length > 0 ? `guard: ${verdict.categories.join(', ')}` : `guard: ${verdict.verdict}`;
    return { stage, level: verdict.level, verdict: verdict.verdict, reason };
  }

  /** Checks a text and refuses it (1301, nothing else happens) when it is unsafe. */
  async require(text: string, stage: SafetyStage, signal?: CancelSignal, tenant?: string): Promise<SafetyResult> {
    const result = await this.check(text, stage, signal, tenant);
    if (result.level === 0) {
      throw unsafeContent(`The ${stage === 'user' ? 'prompt' : 'content'} contains unsafe or sensitive content`);
    }
    return result;
  }

  private guardFailed(stage: SafetyStage, what: string, err?: unknown): SafetyResult {
    this.options.log?.warn({ err }, `safety: ${what}`);
    if (this.options.onGuardError === 'allow') return { stage, level: 2, verdict: 'unchecked', reason: what };
    throw upstreamFailure(`Content safety check failed: ${what}`, { cause: err });
  }
}

/** The API's `content_filter` entries for these results. */
export const contentFilter = (results: readonly SafetyResult[]) =>
  results.map((r) => ({ role: r.stage, level: r.level }));
