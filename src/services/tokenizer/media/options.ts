import type { LookupFunction } from '../../../net/resolve.js';

export { MAX_IMAGE_BYTES, MAX_VIDEO_BYTES } from '../../media/media-type.js';

/** How the tokenizer reaches media URLs; the allow-list is the reader's (`reader.allow_hosts`). */
export interface MediaOptions {
  /** Hostnames or IPs/CIDRs that may be fetched although private (the reader's allow-list). */
  allowHosts?: readonly string[];
  /** DNS resolution; default: the system resolver, every address checked. */
  lookup?: LookupFunction;
  /** Seconds for fetching one image or file. Default 20. */
  fetchTimeoutSeconds?: number;
  /** Seconds for fetching one video. Default 120. */
  videoFetchTimeoutSeconds?: number;
  /** Seconds for one ffprobe run. Default 20. */
  probeTimeoutSeconds?: number;
  /** Default `ffprobe` from PATH (Debian package `ffmpeg`). */
  ffprobePath?: string;
  maxRedirects?: number;
  userAgent?: string;
  /** `file_url` items per request (`tokenizer.max_file_items`). Default 50, the spec's maximum. */
  maxFiles?: number;
  /** Bytes all media fetches of one request may read together (`tokenizer.media_max_bytes`). */
  maxFetchBytes?: number;
  /** Seconds all media fetches of one request may take together (`tokenizer.media_deadline_seconds`). */
  deadlineSeconds?: number;
}

/** The defaults of the `tokenizer` config section, for callers that give no options. */
export const MEDIA_DEFAULTS = { maxFiles: 50, maxFetchBytes: 256 * 1024 * 1024, deadlineSeconds: 60 } as const;

export const MB = 1024 * 1024;
export const MAX_IMAGE_SIDE = 6000;
