import type {
  ChatHistoryItem,
  ChatModelFunctions,
  LLamaChatGenerateResponseOptions,
  LlamaChat,
  LlamaChatResponse,
  LlamaGrammar,
  Token,
} from 'node-llama-cpp';
import { upstreamFailure } from '../../../errors/errors.js';
import { newToolCallId } from '../../../ids/tool-call-id.js';
import { AsyncQueue } from '../../../util/async-queue.js';
import type { CancelSignal } from '../../../util/cancel-signal.js';
import type { ChatRequest, ChatStreamPart, FinishReason } from '../types.js';
import { ParamsText } from './params-text.js';

export interface GenerationInput {
  chat: LlamaChat;
  history: ChatHistoryItem[];
  functions: ChatModelFunctions | undefined;
  grammar: LlamaGrammar | undefined;
  request: ChatRequest;
  promptTokens: number;
  cachedTokens: number;
  /** Room left in the sequence's window after the prompt. */
  roomForOutput: number;
  /** Called once when the model stops generating (before the output is drained). */
  onModelDone?: () => void;
}

type StopReason = LlamaChatResponse['metadata']['stopReason'];

function finishReason(stop: StopReason, cappedByContext: boolean): FinishReason {
  if (stop === 'functionCalls') return 'tool_calls';
  if (stop === 'maxTokens') return cappedByContext ? 'model_context_window_exceeded' : 'length';
  return 'stop';
}

/**
 * Runs one LlamaChat generation on a leased sequence and yields its output as stream parts.
 * Stopping early (the consumer returns, or `signal` aborts) aborts generation and waits for
 * node-llama-cpp to let go of the sequence before returning, so the caller can lend it again.
 */
export async function* runGeneration(input: GenerationInput, signal: CancelSignal): AsyncGenerator<ChatStreamPart> {
  const { chat, request } = input;
  const stopper = new AbortController();
  const onAbort = () => stopper.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) stopper.abort(signal.reason);

  const parts = new AsyncQueue<ChatStreamPart>();
  const meter = chat.sequence.tokenMeter;
  const outputBefore = meter.usedOutputTokens;
  const maxTokens = Math.min(request.maxTokens, input.roomForOutput);
  let textStarted = false;
  let reasoningTokens = 0;
  let calls = 0;
  const { sampling } = request;
  const greedy = sampling.greedy || sampling.temperature === 0;

  // node-llama-cpp's options take a value or nothing (its types refuse undefined): a setting left
  // out keeps the library's default.
  const tuning: Pick<
    LLamaChatGenerateResponseOptions,
    'temperature' | 'topP' | 'topK' | 'seed' | 'customStopTriggers' | 'budgets'
  > = { temperature: greedy ? 0 : sampling.temperature };
  if (!greedy) tuning.topP = sampling.topP;
  if (!greedy && sampling.topK !== undefined) tuning.topK = sampling.topK;
  if (sampling.seed !== undefined) tuning.seed = sampling.seed;
  if (request.stop.length > 0) tuning.customStopTriggers = request.stop;
  if (!request.thinking) tuning.budgets = { thoughtTokens: 0 };

  const common = {
    signal: stopper.signal,
    stopOnAbortSignal: true,
    maxTokens,
    ...tuning,
    // The API has no repetition penalty; node-llama-cpp enables one by default.
    repeatPenalty: false as const,
    onResponseChunk(chunk: {
      type: 'segment' | undefined;
      segmentType: string | undefined;
      text: string;
      tokens: Token[];
    }) {
      if (chunk.type === 'segment') {
        if (chunk.segmentType !== 'thought') return;
        reasoningTokens += chunk.tokens.length;
        // The wire format puts all reasoning before the answer; a late thought is not shown.
        if (chunk.text !== '' && !textStarted) parts.push({ type: 'reasoning-delta', text: chunk.text });
        return;
      }
      // Templates put newlines after `</think>`; they are markup, not the start of the answer.
      const text = textStarted ? chunk.text : chunk.text.replace(/^\n+/, '');
      if (text === '') return;
      textStarted = true;
      parts.push({ type: 'text-delta', text });
    },
  };
  // Arguments stream as the model writes them (tool_stream shows each piece). When the text is not
  // one JSON object from start to end, the parsed parameters are sent whole when the call completes.
  let openCall: { callIndex: number; index: number; text: ParamsText } | undefined;
  const startCall = (callIndex: number, name: string) => {
    openCall = { callIndex, index: calls++, text: new ParamsText() };
    parts.push({ type: 'tool-call-start', index: openCall.index, id: newToolCallId(), name });
    return openCall;
  };
  const onFunctionCallParamsChunk = (chunk: { callIndex: number; functionName: string; paramsChunk: string }) => {
    const call = openCall?.callIndex === chunk.callIndex ? openCall : startCall(chunk.callIndex, chunk.functionName);
    const piece = call.text.push(chunk.paramsChunk);
    if (piece !== '') parts.push({ type: 'tool-call-delta', index: call.index, argumentsDelta: piece });
  };
  const onFunctionCall = (call: { functionName: string; params: unknown }) => {
    const open = openCall ?? startCall(-1, call.functionName);
    openCall = undefined;
    if (!open.text.started) {
      parts.push({ type: 'tool-call-delta', index: open.index, argumentsDelta: JSON.stringify(call.params ?? {}) });
    }
    parts.push({ type: 'tool-call-end', index: open.index });
  };

  const model = (
    input.grammar !== undefined
      ? chat.generateResponse(input.history, { ...common, grammar: input.grammar })
      : chat.generateResponse(input.history, {
          ...common,
          functions: input.functions,
          documentFunctionParams: true,
          ...(request.parallelToolCalls === false ? { maxParallelFunctionCalls: 1 } : {}),
          onFunctionCall,
          onFunctionCallParamsChunk,
        })
  ).finally(() => input.onModelDone?.());
  const run = model.then(
    (res) => {
      if (res.metadata.stopReason !== 'abort') {
        parts.push({
          type: 'finish',
          reason: finishReason(res.metadata.stopReason, maxTokens < request.maxTokens),
          usage: {
            promptTokens: input.promptTokens,
            completionTokens: meter.usedOutputTokens - outputBefore,
            cachedTokens: input.cachedTokens,
            reasoningTokens,
          },
        });
      }
      parts.close();
    },
    (err: unknown) => {
      // An abort during prompt evaluation throws even with stopOnAbortSignal: it is not a failure.
      if (stopper.signal.aborted) parts.close();
      else parts.fail(upstreamFailure('The embedded model failed while generating', { cause: err }));
    },
  );

  try {
    for await (const part of parts.drain()) {
      if (stopper.signal.aborted) break;
      yield part;
    }
  } finally {
    stopper.abort();
    signal.removeEventListener('abort', onAbort);
    await run;
  }
}
