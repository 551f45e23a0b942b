import { invalidField } from '../errors/errors.js';
import { chatModel, imageModel } from '../models/catalogue.js';

/**
 * Rules of the spec that a JSON schema cannot state (combinations across fields). Each throws an
 * ApiError naming the field and the rule; routes run them after schema validation.
 */
interface MessageLike {
  role: string;
  content?: unknown;
  tool_calls?: unknown[] | undefined;
}

export function checkMessageList(messages: MessageLike[], options: { assistantNeedsContent: boolean }): void {
  if (messages.every((m) => m.role === 'system')) {
    throw invalidField('messages', 'must not consist only of system messages; add a user message');
  }
  if (messages.every((m) => m.role === 'assistant')) {
    throw invalidField('messages', 'must not consist only of assistant messages; add a user message');
  }
  if (options.assistantNeedsContent) {
    messages.forEach((m, i) => {
      if (m.role === 'assistant' && m.content === undefined && !m.tool_calls?.length) {
        throw invalidField(`messages[${i}]`, 'an assistant message needs content or tool_calls');
      }
    });
  }
  checkMediaCombination(messages);
}

function checkMediaCombination(messages: MessageLike[]): void {
  let file: string | undefined;
  let media: string | undefined;
  messages.forEach((m, i) => {
    if (!Array.isArray(m.content)) return;
    m.content.forEach((item: { type?: string }, j) => {
      if (item.type === 'file_url') file ??= `messages[${i}].content[${j}]`;
      else if (item.type === 'image_url' || item.type === 'video_url') media ??= `messages[${i}].content[${j}]`;
    });
  });
  if (file && media) {
    throw invalidField(file, `a file_url item cannot be combined with image_url or video_url items (${media})`);
  }
}

export function checkMaxTokens(model: string, maxTokens: number | undefined): void {
  const spec = chatModel(model);
  if (spec && maxTokens !== undefined && maxTokens > spec.maxOutput) {
    throw invalidField('max_tokens', `must be at most ${spec.maxOutput} for ${model}`);
  }
}

/** Size rules per image model family (spec: image generation size rules). */
export function checkImageSize(model: string, size: string | undefined): void {
  if (size === undefined) return;
  const spec = imageModel(model);
  // The spec's recommended values are always allowed, even where they fall outside the custom
  // rules (gen-image recommends 1728x960 and 960x1728, whose short side is below 1024).
  if (spec.recommendedSizes.includes(size)) return;
  const [w, h] = size.split('x').map(Number) as [number, number];
  const side = `each side from ${spec.minSide} to ${spec.maxSide} px and divisible by ${spec.step}`;
  if ([w, h].some((s) => s < spec.minSide || s > spec.maxSide || s % spec.step !== 0)) {
    throw invalidField('size', `${size} is not allowed for ${model}: ${side}`);
  }
  if (w * h > spec.maxPixels) {
    throw invalidField('size', `${size} has ${w * h} pixels; ${model} allows at most ${spec.maxPixels}`);
  }
}
