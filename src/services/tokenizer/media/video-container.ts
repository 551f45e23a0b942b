import type { ProbeResult } from './ffprobe.js';

export type VideoContainer = 'mp4' | 'mov' | 'mkv';

/**
 * The EBML DocType of a Matroska file (`matroska` or `webm`): ffprobe names both `matroska,webm`,
 * so the header itself tells them apart.
 */
export function matroskaDocType(head: Buffer): string | undefined {
  if (head.readUInt32BE(0) !== 0x1a45dfa3) return undefined;
  const limit = Math.min(head.length - 3, 64);
  for (let i = 4; i < limit; i++) {
    if (head[i] !== 0x42 || head[i + 1] !== 0x82) continue;
    const size = head[i + 2]!;
    if (size < 0x81 || size > 0x80 + 16) return undefined; // a one-byte length, as muxers write it
    return head.toString('latin1', i + 3, i + 3 + (size & 0x7f)).replace(/\0+$/, '');
  }
  return undefined;
}

/** The accepted container of a probed file, or a description of the refused one. */
export function videoContainer(probe: ProbeResult, head: Buffer): VideoContainer | { refused: string } {
  const names = probe.formatNames;
  if (names.includes('mov') || names.includes('mp4')) {
    if (probe.majorBrand.startsWith('3g')) return { refused: '3GP' };
    return probe.majorBrand === 'qt' ? 'mov' : 'mp4';
  }
  if (names.includes('matroska')) {
    const docType = head.length >= 4 ? matroskaDocType(head) : undefined;
    return docType === 'webm' ? { refused: 'WebM' } : 'mkv';
  }
  return { refused: names.filter((n) => n).join('/') || 'unknown' };
}
