/**
 * What every reply of the API carries about itself (docs/wire.md, "Ids"): made by the HTTP edge once
 * per request and handed to the handler, so services shape replies without making ids.
 */
export interface ReplyIdentity {
  /** The platform's id of this request (`yyyyMMddHHmmss` + 16 hex); also the log's request id. */
  id: string;
  /** Unix seconds when the request arrived. */
  created: number;
  /** The client's `request_id`, or `id` when it sent none. */
  requestId: string;
}
