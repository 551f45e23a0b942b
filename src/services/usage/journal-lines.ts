import type { UsageRecord } from '../../stores/types.js';

/**
 * A usage record as one line of a journal: a JSON array in a fixed order (no key names: a line is
 * written for every reply). A record that moves money carries four more fields: its cached tokens,
 * cost, account and reservation; lines of ten fields (journals written before) still read. Reading
 * skips what is not a whole, valid line: the last line of a process killed in the middle of a write.
 */
export function encodeRecord(r: UsageRecord): string {
  const fields: unknown[] = [
    r.journalId,
    r.keyId,
    r.operation,
    r.model ?? null,
    r.requestId ?? null,
    r.promptTokens,
    r.completionTokens,
    r.status,
    r.latencyMs,
    r.createdAt,
  ];
  // Pushed rather than spread in: a line is written for every reply, and a spread copies slowly.
  if (r.cost !== undefined || r.reservationId !== undefined || r.cachedTokens !== undefined)
    fields.push(r.cachedTokens ?? 0, r.cost ?? 0, r.accountId ?? null, r.reservationId ?? null);
  return `${JSON.stringify(fields)}\n`;
}

export interface DecodedLines {
  records: UsageRecord[];
  /** Lines that were not a record (a torn last line). */
  skipped: number;
}

export function decodeLines(text: string): DecodedLines {
  const records: UsageRecord[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const record = decodeLine(line);
    if (record) records.push(record);
    else skipped++;
  }
  return { records, skipped };
}

function decodeLine(line: string): UsageRecord | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined; // a torn line: the write it belonged to never finished, so no reply waited on it
  }
  if (!Array.isArray(v) || (v.length !== 10 && v.length !== 14)) return undefined;
  const [journalId, keyId, operation, model, requestId, prompt, completion, status, latency, createdAt] = v;
  const [cached = 0, cost = 0, accountId = null, reservationId = null] = v.slice(10);
  const texts = [journalId, keyId, operation].every((x) => typeof x === 'string');
  const optional = [model, requestId, accountId, reservationId].every((x) => x === null || typeof x === 'string');
  const numbers = [prompt, completion, status, latency, createdAt, cached, cost].every((x) => typeof x === 'number');
  if (!texts || !optional || !numbers || !Number.isSafeInteger(cost) || cost < 0) return undefined;
  const money =
    v.length === 14
      ? { cachedTokens: cached, cost, accountId: accountId ?? undefined, reservationId: reservationId ?? undefined }
      : {};
  return {
    ...money,
    journalId,
    keyId,
    operation,
    model: model ?? undefined,
    requestId: requestId ?? undefined,
    promptTokens: prompt,
    completionTokens: completion,
    status,
    latencyMs: latency,
    createdAt,
  };
}
