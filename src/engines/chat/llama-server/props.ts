import type { ChatEngineCapabilities } from '../types.js';

/** What a deployment says about its model, overriding what llama-server reports. */
export interface CapabilityOverrides {
  tools?: boolean | undefined;
  thinking?: boolean | undefined;
  maxOutput?: number | undefined;
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** What `POST /tokenize {content: '<think>'}` answering one token says: the vocabulary has a thinking marker. */
export const THINK_PROBE = { content: '<think>', add_special: false, parse_special: true };

export function isOneToken(tokenized: unknown): boolean {
  const tokens = record(tokenized)['tokens'];
  return Array.isArray(tokens) && tokens.length === 1;
}

/**
 * The capabilities of a llama-server deployment from its `GET /props`: the context of one slot
 * (`default_generation_settings.n_ctx`, already capped at the model's trained length), tool calls
 * when the chat template takes them (`chat_template_caps.supports_tool_calls`), thinking when the
 * template has a `<think>` block or a thinking switch, or the vocabulary a `<think>` token
 * (`thinkToken`). The deployment's settings win.
 */
export function capabilitiesFromProps(
  props: unknown,
  fallbackContext: number,
  o: CapabilityOverrides,
  thinkToken = false,
): ChatEngineCapabilities {
  const p = record(props);
  const nCtx = record(p['default_generation_settings'])['n_ctx'];
  const maxContext = typeof nCtx === 'number' && Number.isInteger(nCtx) && nCtx > 0 ? nCtx : fallbackContext;
  const caps = record(p['chat_template_caps']);
  const template = typeof p['chat_template'] === 'string' ? p['chat_template'] : '';
  const toolCalls = caps['supports_tool_calls'];
  return {
    tools: o.tools ?? (typeof toolCalls === 'boolean' ? toolCalls : true),
    thinking: o.thinking ?? (thinkToken || /<think>|enable_thinking/.test(template)),
    json: true,
    vision: false,
    maxContext,
    maxOutput: Math.min(o.maxOutput ?? maxContext, maxContext),
  };
}
