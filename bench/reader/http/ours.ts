/**
 * Our whole server for the reader's HTTP benchmark, in a child process of its own (dist/, as
 * `npm start` runs it; bench/gateway/app.ts): the reader with its default extraction threads (one
 * per core, started before the first read as `serve` starts them), allowed to reach the local page
 * server, page cache off so that every call extracts.
 * Reports its resident memory on request (the threads are in the same process).
 */
import { startBenchApp } from '../../gateway/app.js';
import { serveParent } from '../../gateway/ipc.js';

const bench = await startBenchApp({}, { reader: { allow_hosts: ['127.0.0.1'], cache_ttl_seconds: 0 } });
// As `serve` does (src/cli/serve.ts): the extraction threads start before the server is ready.
await bench.services.reader.warmUp();

serveParent(
  {
    rss: () => process.memoryUsage().rss,
    /** CPU time of the whole process (every thread), µs. */
    cpu: () => {
      const { user, system } = process.cpuUsage();
      return user + system;
    },
    threads: () => bench.services.reader.extraction(),
    stop: () => bench.close(),
  },
  { origin: bench.origin, key: bench.key },
);
