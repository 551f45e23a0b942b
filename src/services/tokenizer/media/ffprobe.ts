import { execFile } from 'node:child_process';
import { ApiError } from '../../../errors/api-error.js';
import { upstreamFailure } from '../../../errors/errors.js';
import { abortSignalOf, type CancelSignal } from '../../../util/cancel-signal.js';

/** What the tokenizer needs of `ffprobe -show_format -show_streams`. */
export interface ProbeResult {
  formatNames: string[];
  majorBrand: string;
  durationSeconds: number;
  width: number;
  height: number;
}

/** The file is not something ffprobe can read as a video; the message is shown to the client. */
export class NotAVideoError extends Error {
  override name = 'NotAVideoError';
}

interface ProbeJson {
  format?: { format_name?: string; duration?: string; tags?: Record<string, string> };
  streams?: {
    codec_type?: string;
    width?: number;
    height?: number;
    duration?: string;
    disposition?: { attached_pic?: number };
  }[];
}

export const ffprobeMissing = (path: string) =>
  upstreamFailure(
    `Video tokens need ffprobe, which is not installed on this server (${path} not found): install the ffmpeg package (Debian: apt-get install ffmpeg)`,
  );

function run(path: string, args: string[], timeoutMs: number, signal?: CancelSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const options = {
      timeout: timeoutMs,
      maxBuffer: 4 * 1024 * 1024,
      shell: false,
      ...(signal ? { signal: abortSignalOf(signal) } : {}),
    };
    execFile(path, args, options, (error, stdout) => {
      if (!error) return resolve(stdout);
      if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : error);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EACCES') return reject(ffprobeMissing(path));
      if ((error as { killed?: boolean }).killed) {
        return reject(upstreamFailure(`ffprobe did not finish within ${timeoutMs / 1000} s`));
      }
      reject(new NotAVideoError('ffprobe cannot read it as a video'));
    });
  });
}

const found = new Set<string>();

/** Fails with 1234 when ffprobe cannot be run, before any video is fetched; a success is remembered. */
export async function checkFfprobe(path: string): Promise<void> {
  if (found.has(path)) return;
  await run(path, ['-version'], 10_000).catch((error: unknown) => {
    throw error instanceof ApiError ? error : ffprobeMissing(path);
  });
  found.add(path);
}

const positive = (text: string | undefined): number | undefined => {
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : undefined;
};

/** Container, duration and picture size of a video file (ffprobe run without a shell, killed on `signal`). */
export async function probeVideo(
  path: string,
  file: string,
  timeoutMs: number,
  signal?: CancelSignal,
): Promise<ProbeResult> {
  const out = await run(
    path,
    // The input is a temp file we wrote: a manifest or playlist inside it may name URLs, which
    // ffprobe would otherwise open itself (file only: no http, rtp, udp, crypto or data).
    ['-v', 'error', '-protocol_whitelist', 'file', '-print_format', 'json', '-show_format', '-show_streams', file],
    timeoutMs,
    signal,
  );
  let json: ProbeJson;
  try {
    json = JSON.parse(out) as ProbeJson;
  } catch {
    throw new NotAVideoError('ffprobe gave no readable description');
  }
  const video = json.streams?.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  if (!video?.width || !video.height) throw new NotAVideoError('it has no video stream');
  const duration = positive(json.format?.duration) ?? positive(video.duration);
  if (duration === undefined) throw new NotAVideoError('its duration is unknown');
  return {
    formatNames: (json.format?.format_name ?? '').split(','),
    majorBrand: (json.format?.tags?.major_brand ?? '').trim().toLowerCase(),
    durationSeconds: duration,
    width: video.width,
    height: video.height,
  };
}
