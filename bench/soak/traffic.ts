/**
 * The soak benchmark's mixed traffic: chat streams on the test model, tokenizer, web search,
 * reader on a local page and bad requests, from a few workers in a loop for a fixed time.
 * Records every answer's status and time per kind.
 */
import { Agent, request } from 'undici';

export type Kind = 'chat-stream' | 'tokenizer' | 'search' | 'reader' | 'bad';

export interface TrafficResult {
  latencies: Record<Kind, number[]>;
  statuses: Map<number, number>;
  /** Answers that were not what the kind expects (a 4xx for a good request, a 2xx for a bad one). */
  unexpected: { kind: Kind; status: number; body: string }[];
  total: number;
}

interface Shot {
  kind: Kind;
  path: string;
  body: string;
  contentType?: string;
  /** The statuses this request may get. */
  ok: (status: number) => boolean;
}

const MESSAGES = [{ role: 'user', content: 'Say hello.' }];

function shots(pageUrl: string): { weight: number; shot: Shot }[] {
  const json = (kind: Kind, path: string, body: unknown, ok: (s: number) => boolean = (s) => s === 200): Shot => ({
    kind,
    path,
    body: JSON.stringify(body),
    ok,
  });
  return [
    {
      weight: 30,
      shot: json('chat-stream', '/paas/v4/chat/completions', {
        model: 'gen-4.6',
        stream: true,
        max_tokens: 32,
        messages: MESSAGES,
      }),
    },
    { weight: 25, shot: json('tokenizer', '/paas/v4/tokenizer', { model: 'gen-4.6', messages: MESSAGES }) },
    {
      weight: 20,
      shot: json('search', '/paas/v4/web_search', { search_engine: 'search-prime', search_query: 'soak test' }),
    },
    { weight: 10, shot: json('reader', '/paas/v4/reader', { url: pageUrl }) },
    {
      weight: 5,
      shot: { kind: 'bad', path: '/paas/v4/tokenizer', body: '{"model":', ok: (s) => s === 400 },
    },
    { weight: 5, shot: json('bad', '/paas/v4/tokenizer', { model: 'gen-4.6' }, (s) => s === 400) },
    {
      weight: 5,
      shot: json('bad', '/paas/v4/chat/completions', { model: 'no-such', messages: MESSAGES }, (s) => s === 400),
    },
  ];
}

/** A small deterministic generator, so that runs send the same mix. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function runTraffic(options: {
  origin: string;
  key: string;
  pageUrl: string;
  workers: number;
  durationMs: number;
  seed: number;
}): Promise<TrafficResult> {
  const table = shots(options.pageUrl);
  const totalWeight = table.reduce((n, t) => n + t.weight, 0);
  const random = prng(options.seed);
  const pick = (): Shot => {
    let r = random() * totalWeight;
    for (const t of table) {
      r -= t.weight;
      if (r < 0) return t.shot;
    }
    return table[0]!.shot;
  };
  const agent = new Agent({ connections: options.workers, keepAliveTimeout: 10_000 });
  const result: TrafficResult = {
    latencies: { 'chat-stream': [], tokenizer: [], search: [], reader: [], bad: [] },
    statuses: new Map(),
    unexpected: [],
    total: 0,
  };
  const until = Date.now() + options.durationMs;
  const worker = async () => {
    while (Date.now() < until) {
      const shot = pick();
      const started = performance.now();
      let status = 0;
      let text = '';
      try {
        const res = await request(`${options.origin}${shot.path}`, {
          method: 'POST',
          dispatcher: agent,
          headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
          body: shot.body,
        });
        status = res.statusCode;
        text = await res.body.text();
      } catch (err) {
        text = String(err);
      }
      const ms = performance.now() - started;
      result.total++;
      result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
      result.latencies[shot.kind].push(ms);
      const streamOk = shot.kind !== 'chat-stream' || text.trimEnd().endsWith('data: [DONE]');
      if (!shot.ok(status) || !streamOk) {
        if (result.unexpected.length < 20)
          result.unexpected.push({ kind: shot.kind, status, body: text.slice(0, 300) });
      }
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
  await agent.close();
  return result;
}

export function percentile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
