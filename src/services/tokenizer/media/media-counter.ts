import type { TokenizerBody } from '../../../api/tokenizer.js';
import { invalidField } from '../../../errors/errors.js';
import { chatModel } from '../../../models/catalogue.js';
import { createGuardedFetcher, type Fetcher } from '../../../net/fetcher.js';
import type { CancelSignal } from '../../../util/cancel-signal.js';
import { MediaBudget } from '../../media/budget.js';
import type { MediaFetch } from '../../media/media-source.js';
import { checkFfprobe } from './ffprobe.js';
import { checkFile } from './file-format.js';
import { imageTokens, VISION_MODELS, type VisionModelRule, videoTokens } from './formula.js';
import { measureImage } from './image.js';
import { MEDIA_DEFAULTS, type MediaOptions } from './options.js';
import { measureVideo } from './video.js';

type MediaType = 'image_url' | 'video_url' | 'file_url';

interface MediaItem {
  type: MediaType;
  url: string;
  /** `messages[i].content[j]` */
  item: string;
}

export interface MediaTokens {
  imageTokens: number;
  videoTokens: number;
}

function mediaItems(messages: TokenizerBody['messages']): MediaItem[] {
  const items: MediaItem[] = [];
  messages.forEach((m, i) => {
    if (m.role !== 'user' || typeof m.content === 'string') return;
    m.content.forEach((part, j) => {
      const item = `messages[${i}].content[${j}]`;
      if (part.type === 'image_url') items.push({ type: part.type, url: part.image_url.url, item });
      else if (part.type === 'video_url') items.push({ type: part.type, url: part.video_url.url, item });
      else if (part.type === 'file_url') items.push({ type: part.type, url: part.file_url.url, item });
    });
  });
  return items;
}

function checkCounts(items: MediaItem[], model: string, rule: VisionModelRule, maxFiles: number): void {
  const limits = [
    ['image_url', rule.maxImages, 'image', `${model} (${rule.series} series) accepts`],
    ['video_url', rule.maxVideos, 'video', `${model} (${rule.series} series) accepts`],
    ['file_url', maxFiles, 'file', 'this server accepts (tokenizer.max_file_items)'],
  ] as const;
  for (const [type, max, noun, who] of limits) {
    const over = items.filter((m) => m.type === type)[max];
    if (over) throw invalidField(over.item, `${who} at most ${max} ${noun}${max === 1 ? '' : 's'} per request`);
  }
}

/** The rule of a model, or undefined for models without vision. */
export function visionRuleFor(model: string): VisionModelRule | undefined {
  if (!chatModel(model)?.vision) return undefined;
  const rule = VISION_MODELS[model];
  if (!rule) throw new Error(`no media token rule for vision model ${model} (src/services/tokenizer/media/formula.ts)`);
  return rule;
}

/**
 * The checks that need no fetch, at once: media only on vision models, per-series counts and the
 * file count (1214 naming the first item past a limit). Returns the media items.
 */
export function checkMedia(
  messages: TokenizerBody['messages'],
  model: string,
  rule: VisionModelRule | undefined,
  options: MediaOptions,
): MediaItem[] {
  const items = mediaItems(messages);
  if (items.length === 0) return items;
  if (!rule) {
    const first = items[0]!;
    throw invalidField(first.item, `${model} does not accept ${first.type} input; it has no vision`);
  }
  checkCounts(items, model, rule, options.maxFiles ?? MEDIA_DEFAULTS.maxFiles);
  return items;
}

/**
 * Image and video tokens of a request's content items, after the spec's checks: media only on vision
 * models, per-series counts and the file count (before anything is fetched), and per-item size,
 * pixel and format limits. All fetches of the request share one deadline and one byte budget, and
 * stop when `signal` aborts (the client went away).
 */
export async function countMedia(
  messages: TokenizerBody['messages'],
  model: string,
  rule: VisionModelRule | undefined,
  options: MediaOptions,
  signal?: CancelSignal,
): Promise<MediaTokens> {
  const items = checkMedia(messages, model, rule, options);
  const totals: MediaTokens = { imageTokens: 0, videoTokens: 0 };
  if (items.length === 0 || !rule) return totals;
  if (items.some((m) => m.type === 'video_url')) await checkFfprobe(options.ffprobePath ?? 'ffprobe');
  let fetcher: Fetcher | undefined;
  const via: MediaFetch = {
    fetcher: () => {
      fetcher ??= createGuardedFetcher({
        ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
        ...(options.lookup ? { lookup: options.lookup } : {}),
      });
      return fetcher;
    },
    maxRedirects: options.maxRedirects ?? 5,
    userAgent: options.userAgent ?? 'gen-platform-tokenizer',
  };
  const budget = new MediaBudget(
    options.maxFetchBytes ?? MEDIA_DEFAULTS.maxFetchBytes,
    options.deadlineSeconds ?? MEDIA_DEFAULTS.deadlineSeconds,
    { bytes: 'tokenizer.media_max_bytes', seconds: 'tokenizer.media_deadline_seconds' },
    signal,
  );
  try {
    for (const media of items) {
      if (media.type === 'image_url') {
        const image = await measureImage(media.url, `${media.item}.image_url.url`, via, options, budget);
        totals.imageTokens += imageTokens(image.width, image.height, rule.image);
      } else if (media.type === 'video_url') {
        const video = await measureVideo(media.url, `${media.item}.video_url.url`, via, options, budget);
        totals.videoTokens += videoTokens(video.durationSeconds, video.width, video.height, rule.video);
      } else {
        await checkFile(media.url, `${media.item}.file_url.url`, via, options, budget);
      }
    }
  } finally {
    budget.dispose();
    // destroy, not close: a client that left must not wait for connections still reading.
    await fetcher?.destroy();
  }
  return totals;
}
