import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResponseCreateBody } from '../../../src/api/responses.js';
import type { ChatEngine } from '../../../src/engines/chat/types.js';
import { callContext } from '../../../src/services/call-context.js';
import { ResponseStream } from '../../../src/services/responses/response-stream.js';
import { ResponsesService } from '../../../src/services/responses/responses-service.js';
import type { SearchService } from '../../../src/services/search/search-service.js';
import { SqliteStore } from '../../../src/stores/sqlite/sqlite-store.js';
import { scriptedChatService } from '../../helpers/scripted-chat-engine.js';

/** A Responses service on a scripted chat engine and a fresh SQLite store. */
export function responsesOn(engine: ChatEngine, search?: SearchService) {
  const dir = mkdtempSync(path.join(tmpdir(), 'responses-service-'));
  const store = new SqliteStore(path.join(dir, 'store.db'));
  const service = new ResponsesService(scriptedChatService(engine, search), store.responses, {
    retentionMs: 86_400_000,
  });
  let n = 0;
  const identity = () => {
    n++;
    return { id: `20260101000000${n.toString(16).padStart(16, '0')}`, created: 1_767_225_600, requestId: `r${n}` };
  };
  const body = (fields: Partial<ResponseCreateBody>): ResponseCreateBody =>
    ({ model: 'gen-4.6', input: 'Hi', ...fields }) as ResponseCreateBody;
  return {
    service,
    store,
    async complete(fields: Partial<ResponseCreateBody>, keyId = 'key-a') {
      const run = await service.start(body(fields), identity(), callContext({ tenant: keyId }), keyId);
      return service.complete(run);
    },
    /** The stream's text as the writer sends it: every event, then the last. */
    async stream(fields: Partial<ResponseCreateBody>, keyId = 'key-a', logged: unknown[] = [], keepaliveMs = 60_000) {
      const run = await service.start(
        body({ ...fields, stream: true }),
        identity(),
        callContext({ tenant: keyId }),
        keyId,
      );
      const signal = new AbortController().signal;
      const stream = new ResponseStream(service, run, signal, (err) => logged.push(err), keepaliveMs);
      let text = '';
      for await (const frame of stream.events()) text += frame;
      return text + stream.last();
    },
    close() {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface StreamEvent {
  type: string;
  sequence_number: number;
  [field: string]: unknown;
}

/** The events of a stream's text, checked frame by frame: `event: <type>`, `data: <json>` with that type. */
export function eventsOf(text: string): StreamEvent[] {
  if (!text.endsWith('\n\n'))
    throw new Error(`stream does not end with a blank line: ${JSON.stringify(text.slice(-80))}`);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((frame) => {
      const lines = frame.split('\n');
      if (lines.length !== 2 || !lines[0]!.startsWith('event: ') || !lines[1]!.startsWith('data: ')) {
        throw new Error(`malformed frame: ${JSON.stringify(frame)}`);
      }
      const event = JSON.parse(lines[1]!.slice('data: '.length)) as StreamEvent;
      if (event.type !== lines[0]!.slice('event: '.length)) throw new Error(`event name differs: ${frame}`);
      return event;
    });
}
