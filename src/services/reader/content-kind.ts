/**
 * What kind of document a response is, from its Content-Type, or from its first bytes when the
 * server sent none or a generic one.
 */
export type ContentKind = 'html' | 'text' | 'json' | 'pdf';

const sniff = (body: Buffer): ContentKind | undefined => {
  const head = body.subarray(0, 1024).toString('latin1').trimStart();
  if (head.startsWith('%PDF-')) return 'pdf';
  if (/^(<!doctype html|<html|<head|<body|<!--|<p[\s>]|<div[\s>])/i.test(head)) return 'html';
  if (/^[[{]/.test(head)) {
    try {
      JSON.parse(body.toString('utf8'));
      return 'json';
    } catch {
      return 'text';
    }
  }
  // No NUL bytes in the first kilobyte: text, not a binary format.
  return body.subarray(0, 1024).includes(0) ? undefined : 'text';
};

export function contentKind(contentType: string, body: Buffer): ContentKind | undefined {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/pdf' || type === 'application/x-pdf') return 'pdf';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type.startsWith('text/') || type === 'application/xml' || type.endsWith('+xml')) return 'text';
  if (type === '' || type === 'application/octet-stream' || type === 'binary/octet-stream') return sniff(body);
  return undefined;
}
