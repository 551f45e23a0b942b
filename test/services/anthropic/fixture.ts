import type { MessagesBody } from '../../../src/api/anthropic.js';
import type { ChatEngine } from '../../../src/engines/chat/types.js';
import { anthropicErrorType } from '../../../src/server/anthropic-error.js';
import { AnthropicService } from '../../../src/services/anthropic/anthropic-service.js';
import { MessageStream } from '../../../src/services/anthropic/message-stream.js';
import { callContext } from '../../../src/services/call-context.js';
import type { CancelSignal } from '../../../src/util/cancel-signal.js';
import { scriptedChatService } from '../../helpers/scripted-chat-engine.js';

export const MODEL_MAP = {
  models: [
    { match: 'claude-*haiku*', model: 'gen-4.5-air' },
    { match: 'claude-*sonnet*', model: 'gen-4.6' },
  ],
  default_model: 'gen-4.6',
};

/** An Anthropic service on scripted chat engines (by model code). */
export function anthropicOn(engines: ChatEngine | Record<string, ChatEngine>) {
  const service = new AnthropicService(scriptedChatService(engines), MODEL_MAP);
  let n = 0;
  const identity = () => {
    n++;
    return { id: `20260101000000${n.toString(16).padStart(16, '0')}`, created: 1_767_225_600, requestId: `r${n}` };
  };
  const body = (fields: Partial<MessagesBody>): MessagesBody =>
    ({ model: 'gen-4.6', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }], ...fields }) as MessagesBody;
  return {
    service,
    async complete(fields: Partial<MessagesBody>) {
      const call = callContext({ tenant: 'key-a' });
      const run = await service.start(body(fields), identity(), call);
      return { message: await service.complete(run), usage: call.usage };
    },
    /** The stream's text as the writer sends it: every event, then the last. */
    async stream(
      fields: Partial<MessagesBody>,
      options: { pingMs?: number; signal?: CancelSignal; logged?: unknown[] } = {},
    ) {
      const signal = options.signal ?? new AbortController().signal;
      const call = callContext({ tenant: 'key-a', signal });
      const run = await service.start(body({ ...fields, stream: true }), identity(), call);
      const stream = new MessageStream(service, run, signal, options.pingMs ?? 60_000, anthropicErrorType, (err) =>
        options.logged?.push(err),
      );
      let text = '';
      for await (const frame of stream.events()) text += frame;
      return { text: text + stream.last(), usage: call.usage };
    },
  };
}

export interface Event {
  type: string;
  [field: string]: unknown;
}

/** The events of a stream's text, checked frame by frame: `event: <type>`, `data: <json>` of that type. */
export function eventsOf(text: string): Event[] {
  if (!text.endsWith('\n\n'))
    throw new Error(`stream does not end with a blank line: ${JSON.stringify(text.slice(-80))}`);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((frame) => {
      const m = /^event: ([a-z_]+)\ndata: (.*)$/s.exec(frame);
      if (!m) throw new Error(`not an event frame: ${JSON.stringify(frame)}`);
      const event = JSON.parse(m[2]!) as Event;
      if (event.type !== m[1]) throw new Error(`event ${m[1]} carries data of type ${event.type}`);
      return event;
    });
}
