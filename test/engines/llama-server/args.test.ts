import { describe, expect, it } from 'vitest';
import { type LlamaServerSettings, llamaServerArgs } from '../../../src/engines/chat/llama-server/args.js';
import { capabilitiesFromProps, isOneToken } from '../../../src/engines/chat/llama-server/props.js';

const settings = (over: Partial<LlamaServerSettings> = {}): LlamaServerSettings => ({
  modelPath: '/m/model.gguf',
  threads: 3,
  contextSize: 2048,
  parallel: 4,
  gpu: false,
  alias: 'model',
  extraArgs: [],
  ...over,
});

/** The value following `flag`, or undefined when the flag is absent. */
const flag = (args: string[], name: string) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};

describe('llama-server arguments', () => {
  it('passes the model, loopback and the port', () => {
    const args = llamaServerArgs(settings(), 43210);
    expect(flag(args, '--model')).toBe('/m/model.gguf');
    expect(flag(args, '--host')).toBe('127.0.0.1');
    expect(flag(args, '--port')).toBe('43210');
    expect(flag(args, '--alias')).toBe('model');
    expect(args).toContain('--no-webui');
  });

  it('gives each sequence its own context: -c is context × parallel', () => {
    const args = llamaServerArgs(settings({ contextSize: 2048, parallel: 4 }), 1);
    expect(flag(args, '--ctx-size')).toBe('8192');
    expect(flag(args, '--parallel')).toBe('4');
  });

  it('sets threads for generation and for prompt batches', () => {
    const args = llamaServerArgs(settings({ threads: 3 }), 1);
    expect(flag(args, '--threads')).toBe('3');
    expect(flag(args, '--threads-batch')).toBe('3');
  });

  it("runs the chat template through llama.cpp's Jinja engine, the deployment's file when it names one", () => {
    expect(llamaServerArgs(settings(), 1)).toContain('--jinja');
    expect(flag(llamaServerArgs(settings(), 1), '--chat-template-file')).toBeUndefined();
    const args = llamaServerArgs(settings({ chatTemplateFile: '/t/chatml.jinja' }), 1);
    expect(flag(args, '--chat-template-file')).toBe('/t/chatml.jinja');
  });

  it('keeps every layer on the CPU unless the GPU is asked for', () => {
    expect(flag(llamaServerArgs(settings(), 1), '--n-gpu-layers')).toBe('0');
    expect(flag(llamaServerArgs(settings({ gpu: true }), 1), '--n-gpu-layers')).toBe('auto');
  });

  it('leaves the batch sizes to llama-server unless set', () => {
    const plain = llamaServerArgs(settings(), 1);
    expect(plain).not.toContain('--batch-size');
    expect(plain).not.toContain('--ubatch-size');
    const set = llamaServerArgs(settings({ batchSize: 1024, ubatchSize: 256 }), 1);
    expect(flag(set, '--batch-size')).toBe('1024');
    expect(flag(set, '--ubatch-size')).toBe('256');
  });

  it('names the key file the child checks requests against, never the key itself', () => {
    expect(llamaServerArgs(settings(), 1)).not.toContain('--api-key-file');
    const args = llamaServerArgs(settings(), 1, '/tmp/k/api-key');
    expect(flag(args, '--api-key-file')).toBe('/tmp/k/api-key');
    expect(args).not.toContain('--api-key');
  });

  it('puts extra flags last, so that they win', () => {
    const args = llamaServerArgs(settings({ extraArgs: ['--parallel', '8', '--no-mmap'] }), 1);
    expect(args.slice(-3)).toEqual(['--parallel', '8', '--no-mmap']);
  });
});

describe('capabilities from /props', () => {
  const props = {
    default_generation_settings: { n_ctx: 1024 },
    chat_template: '{% if enable_thinking %}<think>{% endif %}',
    chat_template_caps: { supports_tool_calls: false },
  };

  it("takes the slot's context, the template's tool support and thinking", () => {
    expect(capabilitiesFromProps(props, 4096, {})).toEqual({
      tools: false,
      thinking: true,
      json: true,
      vision: false,
      maxContext: 1024,
      maxOutput: 1024,
    });
  });

  it("lets the deployment's settings win, max_output capped at the context", () => {
    const caps = capabilitiesFromProps(props, 4096, { tools: true, thinking: false, maxOutput: 5000 });
    expect(caps).toMatchObject({ tools: true, thinking: false, maxOutput: 1024 });
    expect(capabilitiesFromProps(props, 4096, { maxOutput: 100 }).maxOutput).toBe(100);
  });

  it('finds thinking in a vocabulary with a <think> token when the template does not show it', () => {
    const plain = { ...props, chat_template: '{{ messages }}' };
    expect(capabilitiesFromProps(plain, 4096, {}).thinking).toBe(false);
    expect(capabilitiesFromProps(plain, 4096, {}, isOneToken({ tokens: [329] })).thinking).toBe(true);
    expect(isOneToken({ tokens: [27, 26865, 29] })).toBe(false);
    expect(capabilitiesFromProps(plain, 4096, { thinking: false }, true).thinking).toBe(false);
  });

  it('falls back to the configured context when /props says nothing usable', () => {
    expect(capabilitiesFromProps({}, 4096, {})).toMatchObject({ maxContext: 4096, tools: true, thinking: false });
  });
});
