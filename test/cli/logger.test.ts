import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/cli/logger.js';
import type { ModelSource } from '../../src/engines/chat/factory.js';
import { ModelDownloads } from '../../src/services/models/model-downloads.js';

/** A pino logger writing JSON lines into an array, at a level. */
function jsonLines(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level }, sink), lines };
}

/** A remote model whose download always fails, with an error that has a stack. */
const failing: ModelSource = {
  id: 'remote',
  reference: 'https://models.example/tiny.gguf',
  remote: true,
  check: async () => ({ status: 'missing', reason: 'not downloaded yet' }),
  fetch: async () => {
    throw new Error('getaddrinfo ENOTFOUND models.example');
  },
};

async function attempts(level: string, n: number) {
  const { log, lines } = jsonLines(level);
  const downloads = new ModelDownloads(log);
  downloads.add(failing, 'gen-4.6');
  await downloads.start({ download: true, retry: { firstDelayMs: 10, maxDelayMs: 10 } });
  const end = Date.now() + 5_000;
  while (lines.filter((l) => l['level'] === 40).length < n && Date.now() < end)
    await new Promise((r) => setTimeout(r, 5));
  downloads.close();
  return lines.filter((l) => l['level'] === 40).slice(0, n);
}

describe('logs for people and for machines', () => {
  it('a retried download logs one line per attempt, with the message and no stack at info level', async () => {
    const warnings = await attempts('info', 3);
    expect(warnings).toHaveLength(3);
    expect(warnings.map((w) => w['attempt'])).toEqual([1, 2, 3]);
    for (const w of warnings) {
      expect(w['error']).toBe('getaddrinfo ENOTFOUND models.example');
      expect(w['err']).toBeUndefined();
      expect(JSON.stringify(w)).not.toContain('    at ');
      expect(w['msg']).toMatch(/^Download of model https:\/\/models\.example\/tiny\.gguf failed: .*; retrying in 1 s$/);
    }
  });

  it('at debug level the same line carries the stack', async () => {
    const [first] = await attempts('debug', 1);
    expect((first!['err'] as { stack: string }).stack).toContain('    at ');
  });

  it('log.format: json writes one JSON object a line; pretty writes readable lines; auto follows the terminal', async () => {
    const json = await createLogger({ level: 'info', format: 'json', requests: false }, { isTTY: true });
    const auto = await createLogger({ level: 'info', format: 'auto', requests: false }, { isTTY: false });
    // pino's own destination (stdout) in both: no prettifier stream in between.
    const stream = (logger: object) => (logger as Record<symbol, unknown>)[pino.symbols.streamSym];
    for (const logger of [json, auto]) expect(stream(logger)).toHaveProperty('fd', 1);
    const pretty = await createLogger({ level: 'info', format: 'pretty', requests: false }, { isTTY: false });
    const onTerminal = await createLogger({ level: 'info', format: 'auto', requests: false }, { isTTY: true });
    for (const logger of [pretty, onTerminal]) expect(stream(logger)).not.toHaveProperty('fd', 1);
  });
});
