import type { ChatWrapper } from 'node-llama-cpp';
import { describe, expect, it } from 'vitest';
import { detectCapabilities } from '../../../src/engines/chat/llama-cpp/capabilities.js';

/** A wrapper as node-llama-cpp resolves one, with only what the detection reads. */
const wrapper = (wrapperName: string, thought: boolean) =>
  ({
    wrapperName,
    settings: { segments: thought ? { thought: { prefix: '<think>' } } : {} },
  }) as unknown as ChatWrapper;

describe('llama.cpp engine capabilities', () => {
  it('the context window is the one the engine serves, even past the trained length', () => {
    // The test models are trained at 4096 tokens; a deployment may serve them at 131072.
    const caps = detectCapabilities(wrapper('Qwen', true), 131_072, { maxOutput: 200_000 });
    expect(caps).toMatchObject({ tools: true, thinking: true, maxContext: 131_072, maxOutput: 131_072 });
  });

  it('the output cap is the deployment’s within the window', () => {
    const caps = detectCapabilities(wrapper('General', false), 8192, { maxOutput: 4096 });
    expect(caps).toMatchObject({ tools: false, thinking: false, maxContext: 8192, maxOutput: 4096 });
  });
});
