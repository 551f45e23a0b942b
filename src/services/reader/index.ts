export { CHROMIUM_FLAGS } from './browser.js';
export { MIN_ARTICLE_WORDS } from './extract.js';
export { blockedClass } from './ip-ranges.js';
export { createReaderService, type ReaderOutput, type ReaderService } from './service.js';
export type {
  BrowserMode,
  LookupFunction,
  ReaderCache,
  ReaderRequest,
  ReaderResult,
  ReaderServiceOptions,
  ResolvedAddress,
  ReturnFormat,
} from './types.js';
