import type { ChatCompletionBody } from '../../api/chat.js';
import type { InputItem } from '../../api/responses.js';
import type { OutputItem } from '../../api/responses-reply.js';
import { invalidField } from '../../errors/errors.js';
import { chatToolName } from './tool-names.js';

type BodyMessage = ChatCompletionBody['messages'][number];
type AssistantMessage = Extract<BodyMessage, { role: 'assistant' }>;
type UserParts = Exclude<Extract<BodyMessage, { role: 'user' }>['content'], string>;
type Part = Extract<InputItem, { type: 'message' }>['content'][number] & { type: string };

/** Where an item came from, for error messages: `input[3]`, or a stored response's. */
export type ItemPlace = (index: number) => string;

/**
 * A custom (free-form) tool is offered to the model as a function with one string argument; its
 * calls go back to the client as `custom_tool_call` items with that string as `input`.
 */
export const CUSTOM_TOOL_ARGUMENT = 'input';

export const customCallArguments = (input: string): string => JSON.stringify({ [CUSTOM_TOOL_ARGUMENT]: input });

/** The output of an earlier response as the input items that continue it (docs/wire.md, "Responses"). */
export function outputAsInput(output: readonly OutputItem[]): InputItem[] {
  const items: InputItem[] = [];
  for (const item of output) {
    switch (item.type) {
      case 'message':
        items.push({ type: 'message', role: 'assistant', content: item.content.map((c) => ({ ...c })) });
        break;
      case 'function_call':
        items.push({
          type: 'function_call',
          call_id: item.call_id,
          name: item.name,
          ...(item.namespace === undefined ? {} : { namespace: item.namespace }),
          arguments: item.arguments,
        });
        break;
      case 'custom_tool_call':
        items.push({
          type: 'custom_tool_call',
          call_id: item.call_id,
          name: item.name,
          ...(item.namespace === undefined ? {} : { namespace: item.namespace }),
          input: item.input,
        });
        break;
      case 'reasoning':
        items.push({ type: 'reasoning', summary: item.summary, ...(item.content ? { content: item.content } : {}) });
        break;
      // The search ran for that turn and put its results in that turn's prompt only.
      case 'web_search_call':
        break;
    }
  }
  return items;
}

function partsText(parts: readonly Part[], place: string, what: string): string {
  return parts
    .map((part, j) => {
      if (part.type === 'input_text' || part.type === 'output_text') return (part as { text: string }).text;
      if (part.type === 'refusal') return (part as { refusal: string }).refusal;
      throw invalidField(`${place}.content[${j}]`, `${what} take text only, not ${part.type}`);
    })
    .join('\n');
}

function userContent(content: string | readonly Part[], place: string): string | UserParts {
  if (typeof content === 'string') return content;
  const parts: UserParts = [];
  content.forEach((part, j) => {
    const at = `${place}.content[${j}]`;
    switch (part.type) {
      case 'input_text':
      case 'output_text':
        parts.push({ type: 'text', text: (part as { text: string }).text });
        break;
      case 'input_image': {
        const url = (part as { image_url?: string }).image_url;
        if (url === undefined)
          throw invalidField(at, 'give the image as image_url (a URL or a data: URL); file ids are not served here');
        parts.push({ type: 'image_url', image_url: { url } });
        break;
      }
      case 'input_file': {
        const url = (part as { file_url?: string }).file_url;
        if (url === undefined)
          throw invalidField(at, 'give the file as file_url; file_data and file ids are not served here');
        parts.push({ type: 'file_url', file_url: { url } });
        break;
      }
      default:
        throw invalidField(at, `a user message cannot carry ${part.type}`);
    }
  });
  if (parts.length === 0) throw invalidField(`${place}.content`, 'must have at least 1 item');
  return parts;
}

function outputText(output: string | readonly Part[], place: string): string {
  return typeof output === 'string' ? output : partsText(output, place, 'function call outputs');
}

/**
 * Input items as chat messages, in order: system and developer messages as system messages, a
 * function call joins the assistant message before it (parallel calls are one assistant turn),
 * its output is a tool message, and reasoning rides on the assistant message that follows it.
 */
export function itemsToMessages(items: readonly InputItem[], place: ItemPlace): BodyMessage[] {
  const messages: BodyMessage[] = [];
  let reasoning: string | undefined;
  /** The assistant message that calls may still join: the last message, when it is the assistant's. */
  const openAssistant = (): AssistantMessage => {
    const last = messages.at(-1);
    if (last?.role === 'assistant') return last;
    const message: AssistantMessage = { role: 'assistant' };
    messages.push(message);
    return message;
  };
  const takeReasoning = (message: AssistantMessage) => {
    if (reasoning === undefined) return;
    message.reasoning_content = message.reasoning_content ? `${message.reasoning_content}\n${reasoning}` : reasoning;
    reasoning = undefined;
  };
  const call = (id: string, name: string, args: string) => {
    const message = openAssistant();
    takeReasoning(message);
    message.tool_calls ??= [];
    message.tool_calls.push({ id, type: 'function', function: { name, arguments: args } });
  };
  items.forEach((item, i) => {
    const at = place(i);
    switch (item.type) {
      case 'message':
        if (item.role === 'user') messages.push({ role: 'user', content: userContent(item.content, at) });
        else if (item.role === 'assistant') {
          const text =
            typeof item.content === 'string' ? item.content : partsText(item.content, at, 'assistant messages');
          const last = messages.at(-1);
          // Text after the calls of the same turn would be out of order: it starts a message of its own.
          const message: AssistantMessage =
            last?.role === 'assistant' && !last.tool_calls?.length ? last : { role: 'assistant' };
          if (message !== last) messages.push(message);
          message.content = message.content ? `${message.content}\n${text}` : text;
          takeReasoning(message);
        } else {
          const text =
            typeof item.content === 'string' ? item.content : partsText(item.content, at, `${item.role} messages`);
          messages.push({ role: 'system', content: text });
        }
        break;
      case 'function_call':
        call(item.call_id, chatToolName(item.name, item.namespace), item.arguments);
        break;
      case 'custom_tool_call':
        call(item.call_id, chatToolName(item.name, item.namespace), customCallArguments(item.input));
        break;
      case 'function_call_output':
      case 'custom_tool_call_output':
        messages.push({ role: 'tool', tool_call_id: item.call_id, content: outputText(item.output, at) });
        break;
      case 'reasoning': {
        const parts = item.content?.length ? item.content : (item.summary ?? []);
        const text = parts.map((p) => p.text).join('\n');
        if (text !== '') reasoning = reasoning === undefined ? text : `${reasoning}\n${text}`;
        break;
      }
      default:
        throw invalidField(
          `${at}.type`,
          `${item.type} items are not served here (they belong to OpenAI's hosted tools)`,
        );
    }
  });
  return messages;
}
