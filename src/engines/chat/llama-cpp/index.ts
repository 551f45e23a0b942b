export { createLlamaCppEngine, type LlamaCppEngine } from './engine.js';
export { checkGguf, ModelFileError } from './gguf-check.js';
export type { LlamaCppEngineOptions } from './options.js';
