/** Event streams being written right now, in this process (read by /metrics at scrape time). */
export const openStreams = { count: 0 };
