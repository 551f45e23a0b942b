import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImageEngine, ImageRequest } from '../../src/engines/image/types.js';
import { ApiError } from '../../src/errors/api-error.js';
import type { ReplayControl } from '../engines/image/replay/common.js';
import { CANCELLERS } from './chat-engine.contract.js';

export interface ImageEngineFixture {
  /** A local server speaking the engine's real wire. */
  replay: ReplayControl;
  /** The engine pointed at `url` (the replay's by default). */
  engine(url?: string): Promise<ImageEngine>;
  /** Steps the backend should see for each quality; undefined where the wire has no steps. */
  steps: { hd: number; standard: number } | undefined;
  /** How the backend hears of a cancelled job. */
  cancelledBy: string;
}

const request = (extra: Partial<ImageRequest> = {}): ImageRequest => ({
  prompt: 'a lighthouse at dawn',
  size: { width: 768, height: 512 },
  quality: 'hd',
  seed: 123_456,
  ...extra,
});

/** The image-engine seam's contract: every engine runs it against the replay of its own wire. */
export function runImageEngineContract(label: string, setup: () => Promise<ImageEngineFixture>): void {
  describe(`image engine contract: ${label}`, () => {
    let f: ImageEngineFixture;
    let engine: ImageEngine;
    beforeAll(async () => {
      f = await setup();
      engine = await f.engine();
    });
    afterAll(async () => {
      await engine.close();
      await f.replay.close();
    });
    beforeEach(() => {
      f.replay.fail = 'none';
      f.replay.delayMs = 0;
      f.replay.format = 'png';
      f.replay.native = undefined;
    });

    it('returns real image bytes of the type the backend made, and says the job started', async () => {
      let started = 0;
      const png = await engine.generate(request(), new AbortController().signal, { started: () => started++ });
      expect(png.mime).toBe('image/png');
      expect(await sharp(png.bytes).metadata()).toMatchObject({ format: 'png', width: 768, height: 512 });
      expect(started).toBe(1);
      f.replay.format = 'jpeg';
      const jpeg = await engine.generate(request(), new AbortController().signal);
      expect(jpeg.mime).toBe('image/jpeg');
      expect((await sharp(jpeg.bytes).metadata()).format).toBe('jpeg');
    });

    it('sends the prompt, size and seed to the backend', async () => {
      await engine.generate(
        request({ prompt: 'un phare à l’aube 灯塔', seed: 42, size: { width: 1024, height: 1536 } }),
        new AbortController().signal,
      );
      expect(f.replay.jobs.at(-1)).toMatchObject({ prompt: 'un phare à l’aube 灯塔', width: 1024, height: 1536 });
      if (f.steps) expect(f.replay.jobs.at(-1)?.seed).toBe(42);
    });

    it('maps quality to the engine settings', async () => {
      await engine.generate(request({ quality: 'hd' }), new AbortController().signal);
      const hd = f.replay.jobs.at(-1)!;
      await engine.generate(request({ quality: 'standard' }), new AbortController().signal);
      const standard = f.replay.jobs.at(-1)!;
      if (f.steps) {
        expect(hd.steps).toBe(f.steps.hd);
        expect(standard.steps).toBe(f.steps.standard);
      }
    });

    it('answers a backend failure with 1234', async () => {
      f.replay.fail = 'error';
      const err = await engine.generate(request(), new AbortController().signal).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe(1234);
      expect((err as ApiError).message).toMatch(/error id [0-9a-f]{16}/);
    });

    it('answers an unreachable backend with 1234 before the job started', async () => {
      const dead = await f.engine('http://127.0.0.1:9');
      let started = false;
      const err = await dead
        .generate(request(), new AbortController().signal, { started: () => (started = true) })
        .catch((e: unknown) => e);
      await dead.close();
      expect((err as ApiError).code).toBe(1234);
      expect(started).toBe(false);
    });

    it.each(CANCELLERS)('cancels the job on the backend when the signal aborts (%s)', async (_kind, make) => {
      f.replay.delayMs = 5_000;
      const controller = make();
      const reason = new Error('client went away');
      const pending = engine.generate(request(), controller.signal);
      await new Promise((r) => setTimeout(r, 300));
      const before = Date.now();
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
      expect(Date.now() - before).toBeLessThan(2_500);
      await expect.poll(() => f.replay.cancels).toContain(f.cancelledBy);
    });
  });
}
