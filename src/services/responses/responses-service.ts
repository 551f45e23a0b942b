import type { ReplyIdentity } from '../../api/reply-identity.js';
import type { InputItem, ResponseCreateBody } from '../../api/responses.js';
import type { ResponseObject } from '../../api/responses-reply.js';
import { invalidField, modelNotConfigured, notFound, unknownModel, upstreamFailure } from '../../errors/errors.js';
import { chatModel } from '../../models/catalogue.js';
import type { ResponseStore } from '../../stores/responses.js';
import type { CallContext } from '../call-context.js';
import type { ChatService, CompletionRun } from '../chat/chat-service.js';
import { outputAsInput } from './input-items.js';
import { afterSearchBody, type ChatTurn, mapResponsesRequest } from './map-request.js';
import { type ItemEvent, OutputBuilder } from './output-builder.js';
import { type Outcome, outcomeOf, type ResponseEcho, responseEcho, responseObject } from './response-object.js';
import { partsWithSearch, type ResponsePart } from './responses-search.js';

export interface ResponsesOptions {
  /** How long a stored response is kept. */
  retentionMs: number;
}

/** One response on its way: the chat completion under it and the items it has made so far. */
export interface ResponseRun {
  readonly echo: ResponseEcho;
  readonly chat: CompletionRun;
  readonly turn: ChatTurn;
  readonly builder: OutputBuilder;
  readonly keyId: string;
  /** What the output is built from: the model's parts, with a search's item where one ran. */
  readonly parts: AsyncIterable<ResponsePart>;
}

/** What ended a response: its outcome, set once the parts are over. */
export interface Ending {
  outcome: Outcome;
  response: ResponseObject;
}

/**
 * The Responses API (docs/wire.md, "Responses"): one translation layer over the chat service.
 * Input items become chat messages, the chat engine's parts become output items and stream events,
 * and `store: true` keeps the response for `GET`, `DELETE` and `previous_response_id`.
 */
export class ResponsesService {
  constructor(
    /** Undefined when no chat model is configured: stored responses are still read and deleted. */
    private readonly chat: ChatService | undefined,
    private readonly store: ResponseStore,
    private readonly options: ResponsesOptions,
  ) {}

  /** `call`: the client's cancellation, its tenant and its usage context; `keyId` scopes stored responses. */
  async start(
    body: ResponseCreateBody,
    identity: ReplyIdentity,
    call: CallContext,
    keyId: string,
  ): Promise<ResponseRun> {
    const spec = chatModel(body.model);
    if (!spec) throw unknownModel(`Model not found: ${body.model}`, { field: 'model' });
    if (!this.chat) throw modelNotConfigured(`Model ${body.model}`, `models.${body.model}`);
    const previous =
      body.previous_response_id === undefined ? [] : await this.conversationOf(keyId, body.previous_response_id);
    const turn = mapResponsesRequest(body, spec, previous);
    const chatService = this.chat;
    const chat = await chatService.start(turn.body, identity, call, turn.options);
    const summary = body.reasoning?.summary ?? body.reasoning?.generate_summary ?? null;
    const echo = responseEcho(body, `resp_${identity.id}`, identity.created, spec, summary);
    const search = turn.webSearch;
    // A forced call was the search; the answer after it chooses freely.
    const { toolChoice: _, ...afterSearch } = turn.options;
    const parts =
      search === undefined
        ? chat.parts
        : partsWithSearch(
            chat,
            search,
            (query) => chatService.start(afterSearchBody(turn, search, query), identity, call, afterSearch),
            (body.include ?? []).includes('web_search_call.action.sources'),
          );
    return { echo, chat, turn, builder: new OutputBuilder(turn.tools, summary !== null), keyId, parts };
  }

  /** The whole reply: the parts folded into the output, stored when asked. */
  async complete(run: ResponseRun): Promise<ResponseObject> {
    const events: ItemEvent[] = [];
    let outcome: Outcome | undefined;
    for await (const part of run.parts) {
      if (part.type === 'finish') {
        run.chat.usage = part.usage;
        outcome = outcomeOf(part.reason);
      } else run.builder.push(part, events);
      events.length = 0;
    }
    // An engine that ends without a finish part was cut off (abort, lost upstream).
    if (!outcome) throw upstreamFailure('The model stopped without finishing its reply');
    if (outcome.status === 'failed') throw upstreamFailure(outcome.error?.message ?? 'The model failed');
    return (await this.finish(run, outcome, events)).response;
  }

  /**
   * Closes the open items (their events go into `events`), makes the Response object and stores
   * it when asked: the last step of both reply forms.
   */
  async finish(run: ResponseRun, outcome: Outcome, events: ItemEvent[]): Promise<Ending> {
    run.builder.close(outcome.status === 'completed' ? 'completed' : 'incomplete', events);
    const response = responseObject(run.echo, outcome, run.builder.output, run.chat.usage);
    if (run.echo.store) await this.save(run, response);
    return { outcome, response };
  }

  /** A stored response of this key. */
  async get(keyId: string, id: string): Promise<ResponseObject> {
    const stored = await this.store.get(keyId, id, Date.now());
    if (!stored) throw responseNotFound(id);
    return JSON.parse(stored.response) as ResponseObject;
  }

  /** Deletes a stored response of this key. */
  async delete(keyId: string, id: string): Promise<void> {
    if (!(await this.store.delete(keyId, id))) throw responseNotFound(id);
  }

  private async save(run: ResponseRun, response: ResponseObject): Promise<void> {
    const now = Date.now();
    await this.store.save({
      id: response.id,
      keyId: run.keyId,
      createdAt: now,
      expiresAt: now + this.options.retentionMs,
      response: JSON.stringify(response),
      input: JSON.stringify(run.turn.conversation),
    });
  }

  /** The conversation a continuation starts from: the stored response's input, then its output. */
  private async conversationOf(keyId: string, id: string): Promise<InputItem[]> {
    const stored = await this.store.get(keyId, id, Date.now());
    if (!stored) {
      throw invalidField(
        'previous_response_id',
        `no stored response ${id} for this key (it was never stored, expired, or was deleted)`,
      );
    }
    const response = JSON.parse(stored.response) as ResponseObject;
    return [...(JSON.parse(stored.input) as InputItem[]), ...outputAsInput(response.output)];
  }
}

export const responseNotFound = (id: string) => notFound(`No response ${id} for this key`);
