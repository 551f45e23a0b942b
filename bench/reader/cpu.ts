/**
 * CPU time per page of the reader's in-thread work (readPage: decode, parse, extract, Markdown), in
 * one process, beside the HTTP benchmark's baseline work (linkedom parse + Readability + its JSON):
 * CPU time is far steadier than pages/s on a shared machine. With `--against DIR`, also the
 * readPage of another checkout's `src/` (e.g. `git archive <commit> src | tar -x -C DIR`, with
 * DIR/node_modules linked to this one), rounds interleaved so both see the same load.
 * `node --import tsx bench/reader/cpu.ts [rounds] [--against DIR]`
 */
import { pathToFileURL } from 'node:url';
import { Readability } from '@mozilla/readability';
import { parseHTML } from '#linkedom';
import { READER_DEFAULTS } from '../../src/services/reader/defaults.js';
import type { readPage as ReadPage } from '../../src/services/reader/read-page.js';
import { loadPages } from './dataset.js';

type ReadabilityDocument = ConstructorParameters<typeof Readability>[0];

const pages = loadPages();
const bodies = pages.map((page) => Buffer.from(page.html));
const rounds = Number(process.argv[2] ?? 5) || 5;
const againstAt = process.argv.indexOf('--against');
const against = againstAt > 0 ? process.argv[againstAt + 1] : undefined;

const cpu = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

const ours = (readPage: typeof ReadPage) => async (): Promise<void> => {
  for (const [i, page] of pages.entries()) {
    const body = bodies[i] as Buffer;
    await readPage({
      body,
      contentType: 'text/html; charset=utf-8',
      url: page.url,
      request: { url: page.url },
      pdfMaxDecodedBytes: READER_DEFAULTS.pdf_max_decoded_mb * 1024 * 1024,
    });
  }
};

async function baseline(): Promise<void> {
  for (const body of bodies) {
    const { document } = parseHTML(body.toString());
    const article = new Readability(document as unknown as ReadabilityDocument).parse();
    JSON.stringify({ title: article?.title ?? '', content: article?.content ?? '' });
  }
}

const runs: [string, () => Promise<void>][] = [
  ['ours', ours((await import('../../src/services/reader/read-page.js')).readPage)],
  ['baseline', baseline],
];
if (against) {
  const module = pathToFileURL(`${against}/src/services/reader/read-page.ts`).href;
  runs.push(['against', ours(((await import(module)) as { readPage: typeof ReadPage }).readPage)]);
}
for (const [, run] of runs) await run(); // warm-up: modules loaded, code compiled
const times = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  for (const [name, run] of round % 2 ? [...runs].reverse() : runs) {
    const started = cpu();
    await run();
    times.set(name, [...(times.get(name) ?? []), (cpu() - started) / 1000 / pages.length]);
  }
}
for (const [name, values] of times) {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  console.log(
    `${name.padEnd(9)} CPU ms/page median ${median.toFixed(2)}  (${sorted.map((v) => v.toFixed(1)).join(' ')})`,
  );
}
