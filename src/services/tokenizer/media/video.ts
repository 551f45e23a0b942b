import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invalidField } from '../../../errors/errors.js';
import type { MediaBudget } from '../../media/budget.js';
import { loadMedia, type MediaFetch } from '../../media/media-source.js';
import { NotAVideoError, type ProbeResult, probeVideo } from './ffprobe.js';
import { MAX_VIDEO_BYTES, type MediaOptions } from './options.js';
import { videoContainer } from './video-container.js';

const FORMATS = 'allowed formats: mp4, mkv, mov';

export interface VideoInfo extends ProbeResult {
  container: 'mp4' | 'mov' | 'mkv';
}

/**
 * Duration and size of one `video_url` item: fetched (at most 200 MB), written to a private temp
 * file for ffprobe, removed afterwards; the container must be mp4, mkv or mov.
 */
export async function measureVideo(
  url: string,
  field: string,
  via: MediaFetch,
  options: MediaOptions,
  budget: MediaBudget,
): Promise<VideoInfo> {
  const { bytes } = await loadMedia(
    url,
    { field, maxBytes: MAX_VIDEO_BYTES, bareBase64: false, timeoutSeconds: options.videoFetchTimeoutSeconds ?? 120 },
    via,
    budget,
  );
  const dir = await mkdtemp(join(tmpdir(), 'gen-platform-video-'));
  let probe: ProbeResult;
  try {
    const file = join(dir, 'input');
    await writeFile(file, bytes, { mode: 0o600 });
    const timeoutMs = (options.probeTimeoutSeconds ?? 20) * 1000;
    probe = await probeVideo(options.ffprobePath ?? 'ffprobe', file, timeoutMs, budget.deadline.signal);
  } catch (error) {
    if (budget.deadline.timedOut()) throw budget.timedOut(field);
    if (error instanceof NotAVideoError)
      throw invalidField(field, `not a readable video: ${error.message}; ${FORMATS}`);
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const container = videoContainer(probe, bytes.subarray(0, 64));
  if (typeof container !== 'string') {
    throw invalidField(field, `${container.refused} videos are not accepted; ${FORMATS}`);
  }
  return { ...probe, container };
}
