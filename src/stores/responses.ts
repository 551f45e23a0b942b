/**
 * Stored responses of the Responses API, a sub-interface of the store seam (`store.responses`). A
 * stored response belongs to the key that made it: reading or deleting it with another key finds
 * nothing, as if it did not exist. Each lives until its expiry; `purge` also keeps every key's share,
 * and the whole table, under a size cap. Every implementation passes
 * test/contracts/response-store.contract.ts.
 */

export interface StoredResponse {
  /** `resp_…`. */
  id: string;
  keyId: string;
  /** Unix milliseconds. */
  createdAt: number;
  expiresAt: number;
  /** The Response object as it was returned, JSON text. */
  response: string;
  /**
   * The conversation the response answered, as Responses input items (JSON text): the items of the
   * responses it continued, then its own input. A response that continues it adds this one's output.
   */
  input: string;
}

export interface ResponsePurge {
  now: number;
  /** Largest total size (of response and input text) one key may keep; its oldest go first. */
  maxBytesPerKey: number;
  /** Largest total size of every key's stored responses together; the oldest go first. */
  maxBytes: number;
}

export interface ResponseStore {
  /** Saves a response; saving an id twice replaces the first (a retried write). */
  save(record: StoredResponse): Promise<void>;
  /** The response, when it exists, belongs to `keyId` and has not expired by `now`. */
  get(keyId: string, id: string, now: number): Promise<StoredResponse | undefined>;
  /** Deletes the response when it belongs to `keyId`; false when there was none to delete. */
  delete(keyId: string, id: string): Promise<boolean>;
  /** Deletes what expired by `now`, then the oldest beyond each key's cap and beyond the total cap. */
  purge(options: ResponsePurge): Promise<number>;
}

/** The row both SQL stores keep. */
export interface StoredResponseRow {
  id: string;
  key_id: string;
  created_at: number | string;
  expires_at: number | string;
  response: string;
  input: string;
}

export const storedResponseParams = (r: StoredResponse): unknown[] => [
  r.id,
  r.keyId,
  r.createdAt,
  r.expiresAt,
  Buffer.byteLength(r.response) + Buffer.byteLength(r.input),
  r.response,
  r.input,
];

export const storedResponseFromRow = (row: StoredResponseRow): StoredResponse => ({
  id: row.id,
  keyId: row.key_id,
  createdAt: Number(row.created_at),
  expiresAt: Number(row.expires_at),
  response: row.response,
  input: row.input,
});

/**
 * The purge's size caps, in SQL both stores run (`?` is the cap): keeps each key's newest responses
 * while their running total fits the key's cap, then everyone's newest while the total fits.
 */
export const overKeyCap = (cap: string) => `DELETE FROM stored_responses WHERE id IN (
  SELECT id FROM (
    SELECT id, SUM(bytes) OVER (PARTITION BY key_id ORDER BY created_at DESC, id DESC) AS kept FROM stored_responses
  ) AS running WHERE kept > ${cap}
)`;
export const overTotalCap = (cap: string) => `DELETE FROM stored_responses WHERE id IN (
  SELECT id FROM (
    SELECT id, SUM(bytes) OVER (ORDER BY created_at DESC, id DESC) AS kept FROM stored_responses
  ) AS running WHERE kept > ${cap}
)`;
