export { CHROMIUM_FLAGS } from './browser.js';
export { MIN_ARTICLE_WORDS } from './extract.js';
export { createReaderService, type ReaderOutput, type ReaderService, type ReadOptions } from './service.js';
export type {
  BrowserMode,
  PageIndex,
  ReaderCache,
  ReaderRequest,
  ReaderResult,
  ReaderServiceOptions,
  ReturnFormat,
} from './types.js';
