import type { Event } from './fixture.js';

/** Which delta each block type takes (Anthropic's streaming docs). */
const DELTAS: Record<string, readonly string[]> = {
  text: ['text_delta'],
  tool_use: ['input_json_delta'],
  thinking: ['thinking_delta', 'signature_delta'],
};

/**
 * The problems of a stream against Anthropic's event grammar: `message_start` first; blocks opened
 * in index order, one at a time, each taking only its own deltas and closed by `content_block_stop`;
 * `message_delta` (stop reason) once every block is closed; `message_stop` last; `ping` anywhere
 * after the start; an `error` event ends a stream early. Empty when the stream is well-formed.
 */
export function grammarProblems(events: readonly Event[]): string[] {
  const problems: string[] = [];
  const say = (i: number, what: string) => problems.push(`event ${i} (${events[i]?.type}): ${what}`);
  if (events[0]?.type !== 'message_start') say(0, 'the stream must open with message_start');
  let open: { index: number; type: string } | undefined;
  let next = 0;
  let delta = false;
  let stopped = false;
  events.forEach((e, i) => {
    if (i === 0) return;
    if (stopped) say(i, 'nothing may follow message_stop or error');
    switch (e.type) {
      case 'ping':
        return;
      case 'message_start':
        say(i, 'a second message_start');
        return;
      case 'content_block_start': {
        const block = e['content_block'] as { type: string };
        if (open) say(i, `block ${open.index} is still open`);
        if (e['index'] !== next) say(i, `index ${e['index']}, expected ${next}`);
        if (delta) say(i, 'a block after message_delta');
        if (!(block?.type in DELTAS)) say(i, `unknown block type ${block?.type}`);
        open = { index: e['index'] as number, type: block?.type };
        next++;
        return;
      }
      case 'content_block_delta': {
        const type = (e['delta'] as { type: string }).type;
        if (!open || open.index !== e['index']) {
          say(i, `no open block ${e['index']}`);
          return;
        }
        if (!DELTAS[open.type]?.includes(type)) say(i, `${type} in a ${open.type} block`);
        return;
      }
      case 'content_block_stop':
        if (!open || open.index !== e['index']) say(i, `no open block ${e['index']} to stop`);
        open = undefined;
        return;
      case 'message_delta':
        if (open) say(i, `block ${open.index} is still open`);
        if (delta) say(i, 'a second message_delta');
        if (typeof (e['delta'] as { stop_reason?: unknown })?.stop_reason !== 'string') say(i, 'no stop_reason');
        delta = true;
        return;
      case 'message_stop':
        if (!delta) say(i, 'message_stop before message_delta');
        stopped = true;
        return;
      case 'error':
        stopped = true;
        return;
      default:
        say(i, 'unknown event type');
        return;
    }
  });
  if (!stopped) problems.push('the stream ends without message_stop or error');
  return problems;
}

/** The fields of each kind of event (by event type, and by delta or block type within it). */
export function shapeOf(events: readonly Event[]): Map<string, string> {
  const shapes = new Map<string, string>();
  for (const e of events) {
    const inner = (e['delta'] ?? e['content_block']) as { type?: string } | undefined;
    const kind = inner?.type && e.type !== 'message_delta' ? `${e.type}/${inner.type}` : e.type;
    const keys = [...Object.keys(e), ...(inner ? Object.keys(inner).map((k) => `.${k}`) : [])].sort().join(',');
    shapes.set(kind, keys);
  }
  return shapes;
}
