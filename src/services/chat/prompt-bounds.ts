import type { ChatCompletionBody } from '../../api/chat.js';
import { contextExceeded, invalidField } from '../../errors/errors.js';

type BodyMessage = ChatCompletionBody['messages'][number];

/** The `chat:` config section: how large a prompt the server builds or takes. */
export interface PromptBounds {
  templateMaxChars: number;
  templateMaxPlaceholders: number;
  maxCharsPerToken: number;
}

export const PROMPT_BOUNDS_DEFAULTS: PromptBounds = {
  templateMaxChars: 16_384,
  templateMaxPlaceholders: 4,
  maxCharsPerToken: 32,
};

/** How often each placeholder occurs, counted without building anything. */
export function countPlaceholders(template: string, pattern: RegExp): number {
  let n = 0;
  for (const _ of template.matchAll(pattern)) n++;
  return n;
}

/** A client template within the length and placeholder caps, or 1214 naming the field and the limit. */
export function checkTemplate(template: string, field: string, placeholders: RegExp, bounds: PromptBounds): void {
  if (template.length > bounds.templateMaxChars) {
    throw invalidField(
      field,
      `must be at most ${bounds.templateMaxChars} characters (chat.template_max_chars), got ${template.length}`,
    );
  }
  const used = countPlaceholders(template, placeholders);
  if (used > bounds.templateMaxPlaceholders) {
    throw invalidField(
      field,
      `may use at most ${bounds.templateMaxPlaceholders} placeholders (chat.template_max_placeholders), got ${used}`,
    );
  }
}

/** Characters a prompt of `maxContext` tokens can hold at most. */
export const promptCharLimit = (maxContext: number, bounds: PromptBounds) => maxContext * bounds.maxCharsPerToken;

/** 1261 for a prompt that cannot fit, said before it is built or tokenized. */
export function promptTooLong(chars: number, maxContext: number, bounds: PromptBounds, what = 'The prompt') {
  return contextExceeded(
    `${what} is ${chars} characters; the model's context window of ${maxContext} tokens holds at most ${promptCharLimit(maxContext, bounds)} (chat.max_chars_per_token: ${bounds.maxCharsPerToken})`,
  );
}

/**
 * The characters of every text of the messages a template renders (content, reasoning, tool calls'
 * ids, names and arguments, a tool result's call id), summed without joining.
 */
export function messageChars(messages: readonly BodyMessage[]): number {
  let chars = 0;
  for (const m of messages) {
    if (typeof m.content === 'string') chars += m.content.length;
    else if (Array.isArray(m.content))
      for (const item of m.content) if (item.type === 'text') chars += item.text.length;
    if (m.role === 'assistant') {
      chars += m.reasoning_content?.length ?? 0;
      for (const call of m.tool_calls ?? []) {
        const args = call.function.arguments;
        chars += call.id.length + call.function.name.length;
        chars += typeof args === 'string' ? args.length : JSON.stringify(args).length;
      }
    } else if (m.role === 'tool') chars += m.tool_call_id.length;
  }
  return chars;
}

/**
 * The characters of the function tools a template renders into the prompt (name, description,
 * parameters schema): 128 tools with megabytes of descriptions cost as much to tokenize as messages.
 */
export function toolChars(tools: ChatCompletionBody['tools']): number {
  let chars = 0;
  for (const tool of tools ?? []) {
    if (tool.type !== 'function') continue;
    const f = tool.function;
    chars += f.name.length + (f.description?.length ?? 0);
    if (f.parameters !== undefined) chars += JSON.stringify(f.parameters).length;
  }
  return chars;
}

/** The characters of all a body's prompt holds as sent: its messages and its function tools. */
export const promptChars = (body: Pick<ChatCompletionBody, 'messages' | 'tools'>): number =>
  messageChars(body.messages) + toolChars(body.tools);

/** 1261 for a body whose messages and function tools cannot fit in `maxContext` tokens. */
export function checkPromptFits(
  body: Pick<ChatCompletionBody, 'messages' | 'tools'>,
  maxContext: number,
  bounds: PromptBounds,
): number {
  const chars = promptChars(body);
  if (chars > promptCharLimit(maxContext, bounds)) throw promptTooLong(chars, maxContext, bounds);
  return chars;
}
