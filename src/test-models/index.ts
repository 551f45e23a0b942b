export { CHAT_MODEL_CODES, exampleConfigYaml } from './example-config.js';
export { encodeGguf, type GgufFile, type GgufTensor, type GgufValue, writeGguf } from './gguf-writer.js';
export { AFTER_TOOL_REPLY, JSON_REPLY, PLAIN_REPLY, programmedModel, THOUGHT } from './programmed-model.js';
export { randomModel } from './random-model.js';
export { type TestModelPaths, writeTestModels } from './write-test-models.js';
