import type { CountTokensBody, MessageParam, MessagesBody, ToolParam } from '../../api/anthropic.js';
import type { ChatCompletionBody } from '../../api/chat.js';
import { invalidField } from '../../errors/errors.js';
import type { ChatModelSpec } from '../../models/catalogue.js';
import type { TurnOptions } from '../chat/chat-service.js';

type BodyMessage = ChatCompletionBody['messages'][number];
type ChatTool = NonNullable<ChatCompletionBody['tools']>[number];
type UserPart = Exclude<Extract<BodyMessage, { role: 'user' }>['content'], string>[number];
type Block = Exclude<MessageParam['content'], string>[number];
type AssistantMessage = Extract<BodyMessage, { role: 'assistant' }>;

/** An Anthropic request as a chat completion: the body the chat service takes, and what the body cannot say. */
export interface ChatTurn {
  body: ChatCompletionBody;
  options: TurnOptions;
  stopSequences: string[];
}

const textOf = (blocks: readonly { type: string; text?: unknown }[]): string =>
  blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');

/** A document block as text, where it is text (plain text, or content blocks); other documents are refused. */
function documentText(block: Extract<Block, { type: 'document' }>, field: string): string {
  const source = block.source as { type: string; data?: string; media_type?: string; content?: unknown };
  let text: string | undefined;
  if (source.type === 'text') text = source.data ?? '';
  else if (source.type === 'content')
    text = typeof source.content === 'string' ? source.content : textOf(source.content as { type: string }[]);
  else if (source.type === 'base64' && source.media_type?.startsWith('text/'))
    text = Buffer.from(source.data ?? '', 'base64').toString('utf8');
  if (text === undefined)
    throw invalidField(
      `${field}.source`,
      `only text documents are read here (a text or content source, or base64 text/*), not ${source.media_type ?? source.type}`,
    );
  const title = typeof block.title === 'string' && block.title !== '' ? `${block.title}\n\n` : '';
  return title + text;
}

function imagePart(block: Extract<Block, { type: 'image' }>, field: string): UserPart {
  const source = block.source as { type: string; media_type?: string; data?: string; url?: string };
  if (source.type === 'base64')
    return { type: 'image_url', image_url: { url: `data:${source.media_type};base64,${source.data}` } };
  if (source.type === 'url') return { type: 'image_url', image_url: { url: source.url! } };
  throw invalidField(`${field}.source.type`, 'file sources (the Files API) are not served here: send base64 or url');
}

/** A tool result's content as the text the model reads; an error result says so. */
function toolResultText(block: Extract<Block, { type: 'tool_result' }>): string {
  const content = block.content;
  let text: string;
  if (content === undefined) text = '';
  else if (typeof content === 'string') text = content;
  else
    text = content
      .map((b) => (b.type === 'text' ? String((b as { text?: unknown }).text ?? '') : `[${b.type} not shown]`))
      .join('\n');
  return block.is_error === true ? `Error: ${text}` : text;
}

function userMessages(content: Block[], field: string, out: BodyMessage[]): void {
  const parts: UserPart[] = [];
  content.forEach((block, j) => {
    const at = `${field}[${j}]`;
    switch (block.type) {
      case 'text':
        parts.push({ type: 'text', text: block.text });
        return;
      case 'image':
        parts.push(imagePart(block, at));
        return;
      case 'document':
        parts.push({ type: 'text', text: documentText(block, at) });
        return;
      case 'tool_result':
        out.push({ role: 'tool', content: toolResultText(block), tool_call_id: block.tool_use_id });
        return;
      case 'thinking':
      case 'redacted_thinking':
      case 'tool_use':
        throw invalidField(`${at}.type`, `a ${block.type} block belongs in an assistant message`);
      default:
        throw unservedBlock(block.type, at);
    }
  });
  if (parts.length === 0) return;
  out.push({
    role: 'user',
    content: parts.every((p) => p.type === 'text') ? parts.map((p) => (p as { text: string }).text).join('\n') : parts,
  });
}

function assistantMessage(content: Block[], field: string): AssistantMessage {
  let text = '';
  let reasoning = '';
  const calls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] = [];
  content.forEach((block, j) => {
    const at = `${field}[${j}]`;
    switch (block.type) {
      case 'text':
        text += block.text;
        return;
      case 'thinking':
        reasoning += block.thinking;
        return;
      case 'redacted_thinking':
        return; // its data is another provider's ciphertext: nothing the model here can read
      case 'tool_use':
        calls.push({
          id: block.id,
          type: 'function',
          function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
        });
        return;
      case 'image':
      case 'document':
      case 'tool_result':
        throw invalidField(`${at}.type`, `a ${block.type} block belongs in a user message`);
      default:
        throw unservedBlock(block.type, at);
    }
  });
  return {
    role: 'assistant',
    content: text,
    ...(reasoning ? { reasoning_content: reasoning } : {}),
    ...(calls.length ? { tool_calls: calls } : {}),
  };
}

const unservedBlock = (type: string, at: string) =>
  invalidField(`${at}.type`, `${type} blocks belong to Anthropic's server tools, which this server does not run`);

/** `system` and `messages` as chat messages: tool results become tool messages, before the user's other blocks. */
export function chatMessages(body: Pick<MessagesBody, 'system' | 'messages'>): BodyMessage[] {
  const out: BodyMessage[] = [];
  const system = typeof body.system === 'string' ? body.system : textOf(body.system ?? []);
  if (system !== '') out.push({ role: 'system', content: system });
  body.messages.forEach((m, i) => {
    const field = `messages[${i}].content`;
    if (m.role === 'user') {
      if (typeof m.content === 'string') out.push({ role: 'user', content: m.content });
      else userMessages(m.content, field, out);
      return;
    }
    // An instruction given in the course of the conversation (Claude Code sends them): kept in its place.
    if (m.role === 'system') {
      if (typeof m.content !== 'string') {
        const other = m.content.findIndex((b) => b.type !== 'text');
        if (other >= 0) throw invalidField(`${field}[${other}].type`, 'a system message holds text blocks only');
      }
      const text = typeof m.content === 'string' ? m.content : textOf(m.content);
      if (text !== '') out.push({ role: 'system', content: text });
      return;
    }
    const message =
      typeof m.content === 'string'
        ? { role: 'assistant' as const, content: m.content }
        : assistantMessage(m.content, field);
    // A last assistant message would be a prefill (the reply continues it): not served by the chat engines.
    if (i === body.messages.length - 1 && (message.content !== '' || message.tool_calls !== undefined))
      throw invalidField(
        `messages[${i}]`,
        "the last message must be the user's: a reply that continues an assistant message (prefill) is not served here",
      );
    if (i < body.messages.length - 1) out.push(message);
  });
  if (!out.some((m) => m.role === 'user' || m.role === 'tool'))
    throw invalidField('messages', 'must hold a user message with content');
  return out;
}

function chatTools(tools: readonly ToolParam[]): ChatTool[] {
  const names = new Set<string>();
  return tools.map((tool, i) => {
    if (tool.type !== undefined && tool.type !== 'custom')
      throw invalidField(
        `tools[${i}].type`,
        `the ${tool.type} tool is one of Anthropic's server or client-defined tools, which this server does not run; give a custom tool with input_schema`,
      );
    if (names.has(tool.name)) throw invalidField('tools', `two tools are named ${tool.name}`);
    names.add(tool.name);
    return {
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description ?? '',
        ...(tool.input_schema ? { parameters: tool.input_schema as Record<string, unknown> } : {}),
      },
    };
  });
}

/** `tool_choice` against the tools given: `none` leaves the model no tools, `any` must call one. */
function toolChoice(
  choice: MessagesBody['tool_choice'],
  tools: ChatTool[],
): { tools: ChatTool[]; options: TurnOptions } {
  if (choice === undefined) return { tools, options: {} };
  const parallel = 'disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use === true;
  const options: TurnOptions = parallel ? { parallelToolCalls: false } : {};
  switch (choice.type) {
    case 'none':
      return { tools: [], options: {} };
    case 'auto':
      return { tools, options };
    case 'any':
      if (tools.length === 0) throw invalidField('tool_choice', '"any" needs at least one tool in tools');
      return { tools, options: { ...options, toolChoice: 'required' } };
    case 'tool':
      if (!tools.some((t) => t.type === 'function' && t.function.name === choice.name))
        throw invalidField('tool_choice.name', `no tool named ${choice.name} is given in tools`);
      return { tools, options: { ...options, toolChoice: { name: choice.name } } };
  }
}

/**
 * The chat completion an Anthropic request asks for, on the model code `model`. Thinking is off
 * unless asked (Anthropic's default), whatever the model's own default.
 */
export function mapMessagesRequest(body: MessagesBody | CountTokensBody, model: string, spec: ChatModelSpec): ChatTurn {
  const messages = chatMessages(body);
  const given = toolChoice(body.tool_choice, chatTools(body.tools ?? []));
  const thinking = body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive';
  const full = 'max_tokens' in body ? (body as MessagesBody) : undefined;
  const chatBody: ChatCompletionBody = {
    model,
    messages,
    stream: full?.stream === true,
    thinking: { type: thinking ? 'enabled' : 'disabled' },
    // A tool asks for the largest reply it may need; the model gives what it can.
    max_tokens: Math.min(full?.max_tokens ?? spec.maxOutput, spec.maxOutput),
    ...(full?.temperature === undefined ? {} : { temperature: full.temperature }),
    ...(full?.top_p === undefined ? {} : { top_p: full.top_p }),
    ...(given.tools.length > 0 ? { tools: given.tools } : {}),
  };
  // top_k 0 is no cut, as on llama.cpp and vLLM.
  const topK = full?.top_k !== undefined && full.top_k > 0 ? { topK: full.top_k } : {};
  return { body: chatBody, options: { ...given.options, ...topK }, stopSequences: full?.stop_sequences ?? [] };
}
