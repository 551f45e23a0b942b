import { describe, expect, it } from 'vitest';
import {
  GLM_V_IMAGE,
  GLM_V_VIDEO,
  imageTokens,
  SERIES_LIMITS,
  sampledFrames,
  smartResize,
  VISION_MODELS,
  videoTokens,
} from '../../../src/services/tokenizer/media/formula.js';

describe('image token formula (GLM-4V / Qwen2-VL style)', () => {
  it('states its constants', () => {
    expect(GLM_V_IMAGE).toEqual({
      patchSize: 14,
      mergeSize: 2,
      minPixels: 12_544,
      maxPixels: 1_003_520,
      boundaryTokens: 2,
    });
    expect(VISION_MODELS['gen-4.6v']).toMatchObject({ series: '4.6V', maxImages: 150, maxVideos: 2 });
    expect(SERIES_LIMITS['4.5V']).toMatchObject({ maxImages: 50, maxVideos: 1 });
    expect(SERIES_LIMITS['5V']).toMatchObject({ maxImages: 150, maxVideos: 2 });
  });

  it.each([
    // width, height → resized, tokens
    [1280, 720, 1288, 728, 46 * 26 + 2], // sides rounded to multiples of 28, area within bounds
    [28, 28, 112, 112, 4 * 4 + 2], // scaled up to min_pixels 112×112
    [1000, 1000, 980, 980, 35 * 35 + 2], // 1008² is over max_pixels: scaled down, floored
    [6000, 6000, 980, 980, 35 * 35 + 2],
    [640, 480, 644, 476, 23 * 17 + 2],
  ])('%ix%i → %ix%i', (width, height, w, h, tokens) => {
    expect(smartResize(width, height, GLM_V_IMAGE)).toEqual({ width: w, height: h });
    expect(imageTokens(width, height, GLM_V_IMAGE)).toBe(tokens);
  });

  it('keeps extreme aspect ratios at least one token wide', () => {
    const size = smartResize(1, 6000, GLM_V_IMAGE);
    expect(size.width).toBe(28);
    expect(size.width * size.height).toBeLessThanOrEqual(GLM_V_IMAGE.maxPixels);
    expect(size.height % 28).toBe(0);
  });

  it('rounds halves to even like the reference processors', () => {
    // 42/28 = 1.5 → 2 (even); 70/28 = 2.5 → 2 (even); both areas then rise to min_pixels.
    expect(smartResize(42 * 4, 42 * 4, GLM_V_IMAGE)).toEqual({ width: 168, height: 168 });
    expect(smartResize(70 * 4, 70 * 4, GLM_V_IMAGE)).toEqual({ width: 280, height: 280 });
  });
});

describe('video token formula', () => {
  it('samples 1 fps, at least 2 frames, at most 300 s, an even count', () => {
    expect(GLM_V_VIDEO).toMatchObject({ fps: 1, minFrames: 2, maxSeconds: 300, temporalPatch: 2 });
    expect(sampledFrames(0.4, GLM_V_VIDEO)).toBe(2);
    expect(sampledFrames(3, GLM_V_VIDEO)).toBe(4);
    expect(sampledFrames(10.9, GLM_V_VIDEO)).toBe(10);
    expect(sampledFrames(3600, GLM_V_VIDEO)).toBe(300);
  });

  it('counts temporal patches at the lower video max_pixels', () => {
    // 320x240 → 308x252 (11x9 tokens); 3 s → 4 frames → 2 pairs of 99 + 2 + 2; plus 2.
    expect(videoTokens(3, 320, 240, GLM_V_VIDEO)).toBe(2 * (99 + 4) + 2);
    // 1920x1080 is scaled to max_pixels 256·28²: 588x336 → 21x12 = 252 tokens per pair.
    expect(smartResize(1920, 1080, GLM_V_VIDEO)).toEqual({ width: 588, height: 336 });
    expect(videoTokens(60, 1920, 1080, GLM_V_VIDEO)).toBe(30 * (252 + 4) + 2);
  });
});
