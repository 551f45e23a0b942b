/**
 * Posting lists kept as blocks of sorted document ids, one database row per block, as both
 * backends store them: reading a list is a few rows and typed-array views, not a row per posting.
 * This file holds what does not depend on the database: gathering a write's changes and editing
 * the blocks they touch. A block is keyed by its first id; blocks never overlap.
 */

/** Ids per block when a block that grew past twice this is split. */
export const BLOCK = 1024;

/** Each token's ids to add and remove in one write. */
export type PostingChanges = Map<string, { add: number[]; remove: number[] }>;

export function change(changes: PostingChanges, tokens: Iterable<string>, id: number, kind: 'add' | 'remove'): void {
  for (const token of tokens) {
    if (token === '') continue;
    let c = changes.get(token);
    if (!c) {
      c = { add: [], remove: [] };
      changes.set(token, c);
    }
    c[kind].push(id);
  }
}

/** A block's ids (uint32 in the platform's byte order: little-endian wherever Node runs) as a typed array. */
export function blockIds(blob: Uint8Array): Uint32Array {
  if (blob.byteOffset % 4 === 0) return new Uint32Array(blob.buffer, blob.byteOffset, blob.byteLength >> 2);
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Uint32Array(copy.buffer);
}

export const blockBytes = (ids: Uint32Array) => Buffer.from(ids.buffer, ids.byteOffset, ids.byteLength);

/** A token's net change: an id both removed and added in one write stays where it is. */
export function netChange(c: { add: number[]; remove: number[] }): { add: number[]; remove: number[] } {
  const removed = new Set(c.remove);
  const add = c.add.filter((id) => !removed.delete(id)).sort((a, b) => a - b);
  return { add, remove: [...removed] };
}

/** Splits a block that grew past 2·BLOCK ids into blocks of BLOCK; empty when nothing is left. */
export function splitBlock(ids: Uint32Array): Uint32Array[] {
  if (ids.length === 0) return [];
  if (ids.length <= 2 * BLOCK) return [ids];
  const parts: Uint32Array[] = [];
  for (let from = 0; from < ids.length; from += BLOCK) parts.push(ids.slice(from, from + BLOCK));
  return parts;
}

/** `ids` with `id` inserted in order (unchanged when present). */
export function withId(ids: Uint32Array, id: number): Uint32Array {
  let at = 0;
  while (at < ids.length && ids[at]! < id) at++;
  if (ids[at] === id) return ids;
  const next = new Uint32Array(ids.length + 1);
  next.set(ids.subarray(0, at));
  next[at] = id;
  next.set(ids.subarray(at), at + 1);
  return next;
}

/** `ids` without `id` (unchanged when absent). */
export function withoutId(ids: Uint32Array, id: number): Uint32Array {
  const at = ids.indexOf(id);
  if (at < 0) return ids;
  const next = new Uint32Array(ids.length - 1);
  next.set(ids.subarray(0, at));
  next.set(ids.subarray(at + 1), at);
  return next;
}

/** `tail` with sorted `ids`, all past its last, appended. */
export function appended(tail: Uint32Array | undefined, ids: number[]): Uint32Array {
  const merged = new Uint32Array((tail?.length ?? 0) + ids.length);
  if (tail) merged.set(tail);
  merged.set(ids, tail?.length ?? 0);
  return merged;
}
