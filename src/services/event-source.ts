/**
 * What a service hands the SSE writer (server/event-stream.ts) when it streams: the JSON text of
 * each event, in order. Async generators are event sources as they stand.
 */
export interface EventSource extends AsyncIterable<string> {
  [Symbol.asyncIterator](): EventIterator;
}

/**
 * An event source's iterator. Besides `next()` it may offer `takeReady()`: the events it can make
 * now without waiting (the chat stream, when one upstream read brought several parts), which the
 * writer sends with the awaited one in the same socket write, without a promise each.
 *
 * Optional, and absent is the default: every event is awaited with `next()`. A source that offers
 * it keeps one order of events whichever way they are read, and lets a failure met in `takeReady()`
 * surface from the next `next()` (test/services/chat/chunk-stream.test.ts reads the chat stream both
 * ways and compares).
 */
export interface EventIterator extends AsyncIterator<string> {
  /** The next event's JSON if it is ready now; undefined when it must be awaited with `next()`. */
  takeReady?(): string | undefined;
}
