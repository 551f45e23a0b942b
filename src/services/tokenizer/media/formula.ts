/**
 * Per-model media token formulas (docs/tokenizer.md). The GLM-4V / Qwen2-VL scheme: an image is
 * resized, keeping its aspect ratio, so that both sides are multiples of `patchSize × mergeSize`
 * (14 × 2 = 28 px) and its area lies within [minPixels, maxPixels]; it is cut into 14 px patches and
 * each 2×2 group of patches is merged into one token, so
 *
 *   image tokens = (W/14)·(H/14)/4 = (W/28)·(H/28)  +  2 boundary tokens (begin/end of image)
 *
 * where W×H is the resized size. A video is sampled at `fps` frames per second over at most
 * `maxSeconds` (at least `minFrames` frames, rounded up to an even count); each pair of frames is
 * one temporal patch whose tokens follow the same spatial formula with the video's lower maxPixels,
 * plus a frame boundary pair and a timestamp per temporal patch, plus 2 boundary tokens per video:
 *
 *   video tokens = pairs · (spatial(W, H) + frameBoundaryTokens + timestampTokens) + boundaryTokens
 */

export interface SpatialRule {
  /** Side of one vision patch, px. */
  patchSize: number;
  /** Patches merged per side into one token (2 → 2×2 patches per token). */
  mergeSize: number;
  minPixels: number;
  maxPixels: number;
}

export interface ImageRule extends SpatialRule {
  /** Tokens around each image (begin/end of image). */
  boundaryTokens: number;
}

export interface VideoRule extends SpatialRule {
  fps: number;
  minFrames: number;
  /** Frames are sampled from at most this many seconds. */
  maxSeconds: number;
  /** Frames per temporal patch. */
  temporalPatch: number;
  /** Tokens around each video. */
  boundaryTokens: number;
  /** Tokens around each temporal patch. */
  frameBoundaryTokens: number;
  /** Timestamp text tokens per temporal patch. */
  timestampTokens: number;
}

/** The spec's per-series input limits (Limits table). */
export interface SeriesLimits {
  series: string;
  maxImages: number;
  maxVideos: number;
}

export interface VisionModelRule extends SeriesLimits {
  image: ImageRule;
  video: VideoRule;
}

export const SERIES_LIMITS = {
  '5V': { series: '5V', maxImages: 150, maxVideos: 2 },
  '4.6V': { series: '4.6V', maxImages: 150, maxVideos: 2 },
  '4.5V': { series: '4.5V', maxImages: 50, maxVideos: 1 },
} as const satisfies Record<string, SeriesLimits>;

const PATCH = 14;
const MERGE = 2;
const TOKEN_SIDE = PATCH * MERGE; // 28 px

/** GLM-4V-style constants: images 112×112 … 1280×28×28 px, videos 112×112 … 256×28×28 px per frame. */
export const GLM_V_IMAGE: ImageRule = {
  patchSize: PATCH,
  mergeSize: MERGE,
  minPixels: 112 * 112,
  maxPixels: 1280 * TOKEN_SIDE * TOKEN_SIDE,
  boundaryTokens: 2,
};

export const GLM_V_VIDEO: VideoRule = {
  patchSize: PATCH,
  mergeSize: MERGE,
  minPixels: 112 * 112,
  maxPixels: 256 * TOKEN_SIDE * TOKEN_SIDE,
  fps: 1,
  minFrames: 2,
  maxSeconds: 300,
  temporalPatch: 2,
  boundaryTokens: 2,
  frameBoundaryTokens: 2,
  timestampTokens: 2,
};

export const glmVisionRule = (series: keyof typeof SERIES_LIMITS): VisionModelRule => ({
  ...SERIES_LIMITS[series],
  image: GLM_V_IMAGE,
  video: GLM_V_VIDEO,
});

/** Media token rules by model code; a vision model of the catalogue needs an entry here. */
export const VISION_MODELS: Readonly<Record<string, VisionModelRule>> = {
  'gen-4.6v': glmVisionRule('4.6V'),
};

/** Python's round(): halves to even, as the reference image processors compute it. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** The resized size: both sides multiples of patchSize×mergeSize, area within [minPixels, maxPixels]. */
export function smartResize(width: number, height: number, rule: SpatialRule): { width: number; height: number } {
  const factor = rule.patchSize * rule.mergeSize;
  let h = Math.max(factor, roundHalfEven(height / factor) * factor);
  let w = Math.max(factor, roundHalfEven(width / factor) * factor);
  if (h * w > rule.maxPixels) {
    const beta = Math.sqrt((height * width) / rule.maxPixels);
    h = Math.max(factor, Math.floor(height / beta / factor) * factor);
    w = Math.max(factor, Math.floor(width / beta / factor) * factor);
  } else if (h * w < rule.minPixels) {
    const beta = Math.sqrt(rule.minPixels / (height * width));
    h = Math.ceil((height * beta) / factor) * factor;
    w = Math.ceil((width * beta) / factor) * factor;
  }
  return { width: w, height: h };
}

/** Tokens of one resized frame: (W/patch)·(H/patch) patches, merged mergeSize² to one token. */
export function spatialTokens(width: number, height: number, rule: SpatialRule): number {
  const size = smartResize(width, height, rule);
  return ((size.width / rule.patchSize) * (size.height / rule.patchSize)) / (rule.mergeSize * rule.mergeSize);
}

export function imageTokens(width: number, height: number, rule: ImageRule): number {
  return spatialTokens(width, height, rule) + rule.boundaryTokens;
}

/** Frames sampled from a video: fps over at most maxSeconds, at least minFrames, even. */
export function sampledFrames(durationSeconds: number, rule: VideoRule): number {
  const seconds = Math.min(Math.max(0, durationSeconds), rule.maxSeconds);
  const frames = Math.max(rule.minFrames, Math.floor(seconds * rule.fps));
  return Math.ceil(frames / rule.temporalPatch) * rule.temporalPatch;
}

export function videoTokens(durationSeconds: number, width: number, height: number, rule: VideoRule): number {
  const pairs = sampledFrames(durationSeconds, rule) / rule.temporalPatch;
  const perPair = spatialTokens(width, height, rule) + rule.frameBoundaryTokens + rule.timestampTokens;
  return pairs * perPair + rule.boundaryTokens;
}
