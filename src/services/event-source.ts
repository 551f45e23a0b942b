/**
 * What a service hands the SSE writer (server/event-stream.ts) when it streams: the JSON text of
 * each event, in order. Async generators are event sources as they stand.
 */
export type EventSource = AsyncIterable<string>;
