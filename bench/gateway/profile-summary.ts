/**
 * Summarises a V8 `.cpuprofile` (from `BENCH_GATEWAY_PROFILE=DIR npm run bench -- gateway`):
 * self time by function, by file/package, and inclusive time of chosen functions.
 * `npx tsx bench/gateway/profile-summary.ts FILE.cpuprofile [TOP] [--per N]` (--per N: divide by
 * N requests to print µs per request).
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts FILE [TOP] [--per N]');
const perIndex = process.argv.indexOf('--per');
const perRequests = perIndex > 0 ? Number(process.argv[perIndex + 1]) : 0;
const top = Number(topArg) || 40;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const self = new Map<number, number>();
profile.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);

function where(frame: CallFrame): string {
  const url = frame.url.replace(/^file:\/\//, '');
  if (url === '') return '(native/V8)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return `npm:${rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (url.startsWith('node:')) return url;
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1);
  const bench = url.indexOf('/bench/');
  return bench >= 0 ? url.slice(bench + 1) : url;
}

const fmt = (us: number) =>
  perRequests > 0 ? `${(us / perRequests).toFixed(1).padStart(7)} µs/req` : `${(us / 1000).toFixed(1).padStart(8)} ms`;
const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;

function report(title: string, key: (n: ProfileNode) => string): void {
  const sums = new Map<string, number>();
  for (const [id, t] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const k = key(node);
    sums.set(k, (sums.get(k) ?? 0) + t);
  }
  console.log(`\n== ${title}`);
  for (const [k, t] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)} ${fmt(t)}  ${k}`);
}

console.log(`total sampled ${(total / 1000).toFixed(0)} ms`);
report('self time by file / package', (n) => where(n.callFrame));
report(
  'self time by function',
  (n) => `${n.callFrame.functionName || '(anonymous)'}  ${where(n.callFrame)}:${n.callFrame.lineNumber + 1}`,
);

// Inclusive time: a sample counts once for every distinct function on its stack.
const inclusive = new Map<string, number>();
for (const [id, t] of self) {
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const node = byId.get(cur);
    if (!node) break;
    const k = `${node.callFrame.functionName || '(anonymous)'}  ${where(node.callFrame)}:${node.callFrame.lineNumber + 1}`;
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + t);
  }
}
console.log('\n== inclusive time by function (src/ and selected packages)');
for (const [k, t] of [...inclusive]
  .filter(([k]) => /src\/|npm:(fastify|undici|better-sqlite3|avvio|find-my-way|ajv|light-my-request|@fastify)/.test(k))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top))
  console.log(`${pct(t)} ${fmt(t)}  ${k}`);

// Categories of the request path: each sample goes to the first category that matches a frame of
// its stack, leaf first (so JSON.parse under the SSE relay counts as upstream parsing).
const CATEGORIES: [string, (frame: CallFrame) => boolean][] = [
  ['profiler itself (inspector)', (f) => f.url === 'node:inspector' || f.url.includes('bench/gateway/server.ts')],
  [
    'socket writes (writev syscalls, loopback TCP)',
    (f) =>
      /^(writev|writevGeneric|_writeGeneric|writeUtf8String|writeLatin1String|writeBuffer)$/.test(f.functionName) &&
      (f.url === '' || f.url.startsWith('node:internal/stream_base')),
  ],
  ['SQLite: usage record INSERT', (f) => f.functionName === 'recordUsage' && f.url.includes('sqlite-store')],
  ['SQLite: key SELECT', (f) => f.functionName === 'getKey' && f.url.includes('sqlite-store')],
  ['auth (token split, sha256, compare)', (f) => f.url.includes('src/services/keys/')],
  [
    'ids (newPlatformId: randomBytes + ISO stamp)',
    (f) => f.url.includes('src/server/ids.ts') || f.url.includes('src/ids/'),
  ],
  [
    'upstream SSE decode + JSON.parse + map to parts',
    (f) => /openai-compatible\/(sse-relay|sse-decoder|chunk-mapper|tool-calls)/.test(f.url),
  ],
  ['upstream request build (buildChatBody, JSON.stringify)', (f) => /openai-compatible\/request-body/.test(f.url)],
  [
    'undici client (dispatch, llhttp wasm, socket reads)',
    (f) =>
      f.url.includes('node_modules/undici') ||
      f.url.startsWith('wasm://') ||
      f.url.includes('openai-compatible/upstream-call'),
  ],
  [
    'chunk encoding + SSE framing (JSON.stringify per chunk)',
    (f) => /src\/(services\/chat\/chunk-encoder|server\/event-stream)/.test(f.url),
  ],
  [
    'chat service (mapping, generators)',
    (f) =>
      f.url.includes('src/services/chat/') ||
      f.url.includes('src/routes/chat') ||
      f.url.includes('src/models/') ||
      f.url.includes('src/api/'),
  ],
  [
    'limiter + tracking + scope hooks',
    (f) => /src\/(services\/limits|server\/(track-request|api-scope|normalize-body|app))/.test(f.url),
  ],
  [
    'Fastify (routing, hooks, body parse, ajv validation)',
    (f) =>
      /node_modules\/(fastify|find-my-way|ajv|secure-json-parse|avvio|@fastify|fast-json-stringify|light-my-request)/.test(
        f.url,
      ),
  ],
  ['node http server (parser, headers, response)', (f) => /^node:_http_/.test(f.url)],
  [
    'node streams/net/events/timers',
    (f) => /^node:(internal\/(streams|stream_base|timers|event_target|abort_controller)|net|events|stream)/.test(f.url),
  ],
  ['GC', (f) => f.functionName === '(garbage collector)'],
  ['idle', (f) => f.functionName === '(idle)'],
  [
    'microtasks / ticks',
    (f) => /^node:internal\/process\/task_queues/.test(f.url) || f.functionName === 'runMicrotasks',
  ],
];
const categorySums = new Map<string, number>();
for (const [id, t] of self) {
  let category = 'other';
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const node = byId.get(cur);
    if (!node) break;
    const hit = CATEGORIES.find(([, test]) => test(node.callFrame));
    if (hit) {
      category = hit[0];
      break;
    }
  }
  categorySums.set(category, (categorySums.get(category) ?? 0) + t);
}
const busy = [...categorySums]
  .filter(([k]) => k !== 'idle' && !k.startsWith('profiler'))
  .reduce((sum, [, t]) => sum + t, 0);
console.log('\n== request path by category (share of busy time: idle and the profiler itself left out)');
for (const [k, t] of [...categorySums].sort((a, b) => b[1] - a[1])) {
  const share = k === 'idle' || k.startsWith('profiler') ? '     ' : `${((100 * t) / busy).toFixed(1).padStart(4)}%`;
  console.log(`${share} ${fmt(t)}  ${k}`);
}
