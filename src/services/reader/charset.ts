import { decodeWindows1252 } from './windows-1252.js';

/**
 * Bytes to text the way browsers do it (WHATWG encoding sniffing, simplified): a BOM wins, then the
 * HTTP `charset`, then a `<meta charset>` or `http-equiv` declaration in the first bytes, then UTF-8
 * when the bytes are valid UTF-8, else windows-1252. Node 20's TextDecoder carries full ICU, so GBK,
 * GB18030, Big5, Shift_JIS, EUC-JP, EUC-KR and the single-byte code pages all decode.
 */

const SNIFF_BYTES = 4096;

const supported = (label: string | undefined): string | undefined => {
  if (!label) return undefined;
  try {
    const encoding = new TextDecoder(label.trim().toLowerCase()).encoding;
    // A page cannot really be UTF-16 if it declared so in ASCII; browsers read it as UTF-8.
    return encoding.startsWith('utf-16') ? 'utf-8' : encoding;
  } catch {
    return undefined;
  }
};

export const charsetFromContentType = (contentType: string): string | undefined =>
  /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];

const fromBom = (bytes: Uint8Array): string | undefined => {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
};

const fromMeta = (bytes: Uint8Array): string | undefined => {
  const head = Buffer.from(bytes.subarray(0, SNIFF_BYTES)).toString('latin1');
  const charset = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
  if (charset) return supported(charset);
  // `<meta http-equiv="Content-Type" content="text/html; charset=...">`, attributes in any order.
  const equiv = /<meta[^>]+content\s*=\s*["'][^"']*charset=([\w.:-]+)/i.exec(head)?.[1];
  return supported(equiv);
};

const isUtf8 = (bytes: Uint8Array): boolean => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

export function detectCharset(bytes: Uint8Array, contentType: string): string {
  const bom = fromBom(bytes);
  if (bom) return bom;
  return (
    supported(charsetFromContentType(contentType)) ?? fromMeta(bytes) ?? (isUtf8(bytes) ? 'utf-8' : 'windows-1252')
  );
}

export function decodeBody(bytes: Uint8Array, contentType: string): string {
  const encoding = detectCharset(bytes, contentType);
  if (encoding === 'windows-1252') return decodeWindows1252(bytes);
  // TextDecoder drops a leading BOM of its own encoding by default.
  return new TextDecoder(encoding).decode(bytes);
}
