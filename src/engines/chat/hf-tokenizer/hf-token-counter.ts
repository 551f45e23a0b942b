import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Template } from '@huggingface/jinja';
import type { CancelSignal } from '../../../util/cancel-signal.js';
import { CountThread } from '../count-thread.js';
import type { ChatMessage, FunctionTool } from '../types.js';

/** Counts prompt tokens without the model: a tokenizer and the chat template that frames the messages. */
export interface TokenCounter {
  count(messages: ChatMessage[], tools: FunctionTool[], thinking: boolean, signal?: CancelSignal): Promise<number>;
  close?(): Promise<void>;
}

/**
 * The thread's code: the tokenizer and the template, loaded there on first use, and a count per
 * template input. Both libraries are required by path, so that it runs the same from the sources
 * and from the build.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
let count;
const load = () => {
  const { Template } = require(workerData.jinja);
  const { Tokenizer } = require(workerData.tokenizers);
  const tokenizer = new Tokenizer(JSON.parse(readFileSync(workerData.tokenizerFile, 'utf8')), workerData.config);
  const template = new Template(workerData.template);
  return (input) => tokenizer.encode(template.render(input), { add_special_tokens: false }).ids.length;
};
parentPort.on('message', ({ id, job }) => {
  try {
    count ??= load();
    parentPort.postMessage({ id, result: count(job) });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

/** Counts that may wait for the thread while one runs (past it, 1305); `tokenizer.thread_queue_size` sets it. */
const DEFAULT_MAX_WAITING = 16;

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
 *
 * Both the template and the tokenizer are synchronous JavaScript, about 1 µs of CPU a character
 * (Qwen3's: 4 MB of text, the most a 131072-token context lets through, took 4.1 s; 2,000 short
 * messages took 0.1–0.3 s to render), and the tokenizer takes 1.7 s to load. So every count runs on
 * a thread of its own (count-thread.ts), whatever its size: the event loop only maps the messages
 * to the template's input. Here the configuration is only checked, so that a bad one fails when
 * the deployment opens.
 */
export class HfTokenCounter implements TokenCounter {
  private readonly thread: CountThread<Json, number>;
  private readonly specials: Json;

  constructor(location: string, maxWaiting = DEFAULT_MAX_WAITING) {
    const dir = statSync(location).isDirectory() ? location : path.dirname(location);
    const tokenizerFile = statSync(location).isDirectory() ? path.join(location, 'tokenizer.json') : location;
    const configFile = path.join(dir, 'tokenizer_config.json');
    const config = existsSync(configFile) ? readJson(configFile) : {};
    const template = config['chat_template'];
    if (typeof template !== 'string') throw new Error(`${configFile} has no chat_template to frame the messages`);
    if (!statSync(tokenizerFile).isFile()) throw new Error(`${tokenizerFile} is not a file`);
    new Template(template); // parses: a broken template fails here
    this.specials = { bos_token: tokenText(config['bos_token']), eos_token: tokenText(config['eos_token']) };
    const require = createRequire(import.meta.url);
    this.thread = new CountThread({
      code: WORKER,
      workerData: {
        jinja: require.resolve('@huggingface/jinja'),
        tokenizers: require.resolve('@huggingface/tokenizers'),
        tokenizerFile,
        config,
        template,
      },
      maxWaiting,
      name: `the tokenizer of ${path.basename(dir)}`,
    });
  }

  /** Counts running and waiting on the thread (for tests). */
  get load() {
    return this.thread.load;
  }

  count(messages: ChatMessage[], tools: FunctionTool[], thinking: boolean, signal?: CancelSignal): Promise<number> {
    return this.thread.run(this.templateInput(messages, tools, thinking), signal);
  }

  close(): Promise<void> {
    return this.thread.close();
  }

  private templateInput(messages: ChatMessage[], tools: FunctionTool[], thinking: boolean): Json {
    return {
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
    };
  }
}
