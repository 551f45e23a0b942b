export { createOpenAICompatibleEngine } from './engine.js';
export type { OpenAICompatibleOptions, ThinkingControl, UpstreamLogger } from './options.js';
