/**
 * The model codes of the spec with their per-series defaults and ceilings (spec: chat completion
 * table and Limits). Which engine serves a code is configuration, not catalogue.
 */
export interface ChatModelSpec {
  code: string;
  temperature: number;
  topP: number;
  /** Largest `max_tokens` the model accepts. */
  maxOutput: number;
  /** Thinking is supported (4.5 series and later) and on by default. */
  thinking: boolean;
  /** `reasoning_effort` is honoured. */
  reasoningEffort: boolean;
  /** `tool_stream` is supported (4.6 and above). */
  toolStream: boolean;
  vision: boolean;
}

const K = 1024;
const series5 = { temperature: 1, topP: 0.95, maxOutput: 128 * K, thinking: true, toolStream: true, vision: false };
const series45 = { temperature: 0.6, topP: 0.95, maxOutput: 96 * K, thinking: true, toolStream: false, vision: false };

const spec = (code: string, base: Omit<ChatModelSpec, 'code' | 'reasoningEffort'>): ChatModelSpec => ({
  code,
  ...base,
  reasoningEffort: code === 'gen-5.2',
});

export const CHAT_MODELS: readonly ChatModelSpec[] = [
  ...['gen-5.2', 'gen-5.1', 'gen-5-turbo', 'gen-5', 'gen-4.7', 'gen-4.7-flash', 'gen-4.7-flashx', 'gen-4.6'].map((c) =>
    spec(c, series5),
  ),
  ...['gen-4.5', 'gen-4.5-air', 'gen-4.5-x', 'gen-4.5-airx', 'gen-4.5-flash'].map((c) => spec(c, series45)),
  spec('gen-4-32b-0414-128k', {
    temperature: 0.75,
    topP: 0.9,
    maxOutput: 16 * K,
    thinking: false,
    toolStream: false,
    vision: false,
  }),
];

/** Models the tokenizer operation accepts; `gen-4.6v` is the vision model of the 4.6 series. */
export const TOKENIZER_MODELS: readonly ChatModelSpec[] = [
  CHAT_MODELS.find((m) => m.code === 'gen-4.6')!,
  spec('gen-4.6v', { ...series5, maxOutput: 32 * K, vision: true }),
  CHAT_MODELS.find((m) => m.code === 'gen-4.5')!,
];

export const CHAT_MODEL_CODES = CHAT_MODELS.map((m) => m.code);
export const TOKENIZER_MODEL_CODES = TOKENIZER_MODELS.map((m) => m.code);

const byCode = new Map([...CHAT_MODELS, ...TOKENIZER_MODELS].map((m) => [m.code, m]));

export function chatModel(code: string): ChatModelSpec | undefined {
  return byCode.get(code);
}

export interface ImageModelSpec {
  code: string;
  defaultSize: string;
  defaultQuality: 'hd' | 'standard';
  recommendedSizes: readonly string[];
  /** Custom sizes: each side in [minSide, maxSide], divisible by `step`, at most `maxPixels` pixels. */
  minSide: number;
  maxSide: number;
  step: number;
  maxPixels: number;
}

export const IMAGE_MODELS: readonly ImageModelSpec[] = [
  {
    code: 'gen-image',
    defaultSize: '1280x1280',
    defaultQuality: 'hd',
    recommendedSizes: ['1280x1280', '1568x1056', '1056x1568', '1472x1088', '1088x1472', '1728x960', '960x1728'],
    minSide: 1024,
    maxSide: 2048,
    step: 32,
    maxPixels: 2 ** 22,
  },
];

/** The spec's rules for image models of other families, should the catalogue gain one. */
export const OTHER_IMAGE_FAMILY: Omit<ImageModelSpec, 'code'> = {
  defaultSize: '1024x1024',
  defaultQuality: 'standard',
  recommendedSizes: ['1024x1024', '768x1344', '864x1152', '1344x768', '1152x864', '1440x720', '720x1440'],
  minSide: 512,
  maxSide: 2048,
  step: 16,
  maxPixels: 2 ** 21,
};

export const IMAGE_MODEL_CODES = IMAGE_MODELS.map((m) => m.code);

/** Codes of the image family: their deployments name image engines, not chat engines. */
export function isImageModelCode(code: string): boolean {
  return IMAGE_MODEL_CODES.includes(code);
}

export function imageModel(code: string): ImageModelSpec {
  return IMAGE_MODELS.find((m) => m.code === code) ?? { code, ...OTHER_IMAGE_FAMILY };
}
