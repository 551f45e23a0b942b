import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Template } from '@huggingface/jinja';
import { Tokenizer } from '@huggingface/tokenizers';
import type { ChatMessage, FunctionTool } from '../types.js';

/** Counts prompt tokens without the model: a tokenizer and the chat template that frames the messages. */
export interface TokenCounter {
  count(messages: ChatMessage[], tools: FunctionTool[], thinking: boolean): Promise<number>;
}

type Json = Record<string, unknown>;

function readJson(file: string): Json {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Json;
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
}

const tokenText = (t: unknown) =>
  typeof t === 'string' ? t : typeof t === 'object' && t ? String((t as Json)['content'] ?? '') : '';

/** Arguments as a mapping, as vLLM hands them to templates (they are JSON text on the wire). */
function argumentsValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function templateMessages(messages: ChatMessage[]): Json[] {
  return messages.map((m) => {
    const content =
      typeof m.content === 'string' || m.content === undefined
        ? (m.content ?? '')
        : m.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    const out: Json = { role: m.role, content };
    if (m.role === 'tool') out['tool_call_id'] = m.tool_call_id;
    if (m.role === 'assistant') {
      if (m.reasoning_content) out['reasoning_content'] = m.reasoning_content;
      if (m.tool_calls?.length) {
        out['tool_calls'] = m.tool_calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.function.name, arguments: argumentsValue(c.function.arguments) },
        }));
      }
    }
    return out;
  });
}

/**
 * A Hugging Face `tokenizer.json` with the `chat_template` of the `tokenizer_config.json` beside it,
 * for upstreams that offer no tokenize endpoint. Given a folder, both files are read from it.
 */
export class HfTokenCounter implements TokenCounter {
  private readonly tokenizer: Tokenizer;
  private readonly template: Template;
  private readonly specials: Json;

  constructor(location: string) {
    const dir = statSync(location).isDirectory() ? location : path.dirname(location);
    const tokenizerFile = statSync(location).isDirectory() ? path.join(location, 'tokenizer.json') : location;
    const configFile = path.join(dir, 'tokenizer_config.json');
    const config = existsSync(configFile) ? readJson(configFile) : {};
    const template = config['chat_template'];
    if (typeof template !== 'string') throw new Error(`${configFile} has no chat_template to frame the messages`);
    this.tokenizer = new Tokenizer(readJson(tokenizerFile), config);
    this.template = new Template(template);
    this.specials = { bos_token: tokenText(config['bos_token']), eos_token: tokenText(config['eos_token']) };
  }

  async count(messages: ChatMessage[], tools: FunctionTool[], thinking: boolean): Promise<number> {
    const prompt = this.template.render({
      ...this.specials,
      messages: templateMessages(messages),
      ...(tools.length > 0
        ? {
            tools: tools.map((t) => ({
              type: 'function',
              function: { name: t.name, description: t.description ?? '', parameters: t.parameters ?? {} },
            })),
          }
        : {}),
      add_generation_prompt: true,
      enable_thinking: thinking,
    });
    return this.tokenizer.encode(prompt, { add_special_tokens: false }).ids.length;
  }
}
