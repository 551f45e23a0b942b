import type { LookupFunction } from '../../reader/types.js';

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
}

export const MB = 1024 * 1024;
export const MAX_IMAGE_BYTES = 5 * MB;
export const MAX_IMAGE_SIDE = 6000;
export const MAX_VIDEO_BYTES = 200 * MB;
/** Files whose format only the content type tells are fetched up to this size. */
export const MAX_FILE_BYTES = 50 * MB;
