import type { CountTokensBody, MessagesBody } from '../../api/anthropic.js';
import type { AnthropicMessage, AnthropicModel, AnthropicUsage, StopReason } from '../../api/anthropic-reply.js';
import type { ReplyIdentity } from '../../api/reply-identity.js';
import type { ChatEngineCapabilities, ChatUsage, FinishReason, PartIterator } from '../../engines/chat/types.js';
import { modelNotConfigured, notFound, unknownModel, upstreamFailure } from '../../errors/errors.js';
import { CHAT_MODEL_CODES, chatModel } from '../../models/catalogue.js';
import type { CallContext } from '../call-context.js';
import type { ChatService, CompletionRun } from '../chat/chat-service.js';
import { type ChatTurn, mapMessagesRequest } from './map-request.js';
import { type BlockEvent, MessageBuilder } from './message-builder.js';
import { ModelMap, type ModelMapConfig } from './model-map.js';

/** One message on its way: the chat completion under it and the blocks it has made so far. */
export interface MessageRun {
  readonly id: string;
  /** The model name the request gave: the reply names it back. */
  readonly model: string;
  readonly chat: CompletionRun;
  readonly turn: ChatTurn;
  readonly builder: MessageBuilder;
  readonly call: CallContext;
  parts: PartIterator | undefined;
  reason: FinishReason | undefined;
}

/** The usage of a reply: evaluated prompt tokens apart from those read from a reused prefix. */
export function anthropicUsage(
  usage: Pick<ChatUsage, 'promptTokens' | 'completionTokens' | 'cachedTokens'>,
): AnthropicUsage {
  const cached = Math.min(usage.cachedTokens, usage.promptTokens);
  return {
    input_tokens: usage.promptTokens - cached,
    output_tokens: usage.completionTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
  };
}

const STARTED = new Date().toISOString();

/**
 * Anthropic's Messages API (docs/wire.md, "Anthropic Messages"): one translation layer over the chat
 * service. Messages and blocks become chat messages, Claude model names resolve through the model
 * map, and the chat engine's parts become content blocks and stream events.
 */
export class AnthropicService {
  private readonly map: ModelMap;

  constructor(
    private readonly chat: ChatService | undefined,
    config: ModelMapConfig,
  ) {
    this.map = new ModelMap(config);
  }

  /** The model code serving a model name, and its catalogue entry. */
  private resolve(name: string) {
    const code = this.map.resolve(name);
    const spec = chatModel(code);
    if (!spec) throw unknownModel(`Model not found: ${name}`, { field: 'model' });
    if (!this.chat) throw modelNotConfigured(`Model ${code}`, `models.${code}`);
    return { code, spec, chat: this.chat };
  }

  /**
   * The model code a model name calls: what the key's model allowlists are checked against (they
   * name codes, as `/models` lists them), so a Claude name reaches only the code it maps to.
   */
  codeOf(name: string): string {
    return this.resolve(name).code;
  }

  async start(body: MessagesBody, identity: ReplyIdentity, call: CallContext): Promise<MessageRun> {
    const { code, spec, chat } = this.resolve(body.model);
    call.usage.useModel(code);
    const turn = mapMessagesRequest(body, code, spec);
    const run = await chat.start(turn.body, identity, call, turn.options);
    return {
      id: `msg_${identity.id}`,
      model: body.model,
      chat: run,
      turn,
      builder: new MessageBuilder(turn.stopSequences),
      call,
      parts: undefined,
      reason: undefined,
    };
  }

  /** `input_tokens` of the same request to /messages, with the serving model's tokenizer and template. */
  async countTokens(body: CountTokensBody, call: CallContext): Promise<number> {
    const { code, spec, chat } = this.resolve(body.model);
    const turn = mapMessagesRequest(body, code, spec);
    return chat.countPromptTokens(turn.body, call, turn.options);
  }

  /**
   * The next part folded into the run's blocks (their events into `events`); false once the reply
   * is over: the engine finished, or a stop sequence ended it (the engine is then stopped).
   */
  async step(run: MessageRun, events: BlockEvent[]): Promise<boolean> {
    run.parts ??= run.chat.parts[Symbol.asyncIterator]();
    const next = await run.parts.next();
    if (next.done) return false;
    const part = next.value;
    if (part.type === 'finish') {
      run.chat.usage = part.usage;
      run.reason = part.reason;
      // The engine ends its generation (frees its sequence) once its stream is read to the end.
      const after = await run.parts.next();
      if (!after.done) await run.parts.return?.();
      return false;
    }
    run.builder.push(part, events);
    if (!run.builder.stopped) return true;
    await run.parts.return?.();
    return false;
  }

  /** The message once the parts are over (its last block events into `events`). */
  async finish(run: MessageRun, events: BlockEvent[]): Promise<AnthropicMessage> {
    if (!run.builder.stopped && run.reason === undefined)
      throw upstreamFailure('The model stopped without finishing its reply');
    if (run.reason === 'network_error') throw upstreamFailure('The model failed while generating');
    run.builder.close(events);
    return this.message(run, run.builder.stopReason(run.reason), await this.usageOf(run));
  }

  /** The whole reply: every part folded. */
  async complete(run: MessageRun): Promise<AnthropicMessage> {
    const events: BlockEvent[] = [];
    while (await this.step(run, events)) events.length = 0;
    return this.finish(run, events);
  }

  message(run: MessageRun, stopReason: StopReason | null, usage: AnthropicUsage): AnthropicMessage {
    return {
      id: run.id,
      type: 'message',
      role: 'assistant',
      model: run.model,
      content: run.builder.content,
      stop_reason: stopReason,
      stop_sequence: run.builder.stopSequence ?? null,
      usage,
    };
  }

  /**
   * The engine's figures; a reply a stop sequence ended has none (the engine was stopped), and is
   * billed as every cut-short generation is: what the request's usage counted (metered-parts.ts).
   */
  private async usageOf(run: MessageRun): Promise<AnthropicUsage> {
    if (run.chat.usage) return anthropicUsage(run.chat.usage);
    await run.call.usage.counted();
    return anthropicUsage({ ...run.call.usage, cachedTokens: 0 });
  }

  /** The model codes served here that `allowed` lets through, in Anthropic's list shape. */
  async models(allowed: (code: string) => boolean): Promise<AnthropicModel[]> {
    const chat = this.chat;
    if (!chat) return [];
    const codes = CHAT_MODEL_CODES.filter((c) => chat.hasModel(c) && allowed(c));
    // Each with the context window of the deployment serving it, as one model by id gives it.
    return Promise.all(codes.map(async (code) => modelInfo(code, (await chat.engineFor(code)).capabilities)));
  }

  /**
   * One model by code or Claude name, with the context window of the deployment serving it;
   * `check` refuses a code the caller may not call.
   */
  async model(name: string, check: (code: string) => void): Promise<AnthropicModel> {
    let code: string;
    try {
      code = this.resolve(name).code;
    } catch {
      throw notFound(`No model ${name} here`);
    }
    if (!this.chat?.hasModel(code)) throw notFound(`No model ${name} here`);
    check(code);
    const engine = await this.chat.engineFor(code);
    return { ...modelInfo(code, engine.capabilities), id: name };
  }
}

/**
 * Anthropic's model object: `max_input_tokens` is the window of the deployment serving the code
 * (not the catalogue's figure for the live model), `max_tokens` the most it writes in one reply
 * there: the catalogue's output cap within that window.
 */
function modelInfo(code: string, serving: Pick<ChatEngineCapabilities, 'maxContext' | 'maxOutput'>): AnthropicModel {
  const catalogued = chatModel(code)?.maxOutput ?? serving.maxContext;
  return {
    type: 'model',
    id: code,
    display_name: code,
    created_at: STARTED,
    max_input_tokens: serving.maxContext,
    max_tokens: Math.min(catalogued, serving.maxOutput, serving.maxContext),
  };
}
