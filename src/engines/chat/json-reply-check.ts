import type { ApiError } from '../../errors/api-error.js';
import type { ChatStreamPart } from './types.js';

/**
 * JSON mode held to its word, for engines whose server may ignore it (an upstream that answers plain
 * text to `response_format`): the reply's text must be JSON. Text that cannot start a JSON value is
 * caught before any of it goes out (a 1234 instead of a 200); a reply that ends (`stop`) with text
 * that does not parse ends as an upstream failure (a `network_error` chunk once streaming). A reply
 * cut by `length` is left as it is: the client asked for fewer tokens than the JSON needed, and the
 * finish reason says so. Reasoning and tool calls are not checked.
 */
export async function* checkJsonReply(
  parts: AsyncIterable<ChatStreamPart>,
  failure: (what: string) => ApiError,
): AsyncGenerator<ChatStreamPart> {
  let text = '';
  /** Leading whitespace held back until the first character that decides. */
  let held: ChatStreamPart[] | undefined = [];
  for await (const part of parts) {
    if (part.type === 'text-delta') {
      text += part.text;
      if (held !== undefined) {
        held.push(part);
        const first = text.trimStart();
        if (first === '') continue;
        if (first[0] !== '{' && first[0] !== '[') {
          throw failure(`the upstream answered non-JSON in JSON mode (${JSON.stringify(first.slice(0, 40))}…)`);
        }
        yield* held;
        held = undefined;
      } else yield part;
      continue;
    }
    if (part.type === 'finish' && part.reason === 'stop' && !isJson(text)) {
      throw failure('the upstream answered non-JSON in JSON mode (the reply does not parse)');
    }
    if (held !== undefined && part.type === 'finish') {
      yield* held;
      held = undefined;
    }
    yield part;
  }
}

function isJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    // Not JSON: the caller reports it as the upstream's failure.
    return false;
  }
}
