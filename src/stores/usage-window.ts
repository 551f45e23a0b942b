/** Requests in a usage window: how many, and when the oldest was made. */
export interface UsageWindow {
  count: number;
  /** Time of the oldest request in the window, when there is one. */
  oldest: number | undefined;
}
