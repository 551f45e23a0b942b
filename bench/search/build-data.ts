/**
 * Builds the judged collection in data/ from the manual pages installed on the machine (see
 * data/README.md). Run once: `npx tsx bench/search/build-data.ts`; the output is committed, so the
 * benchmark does not depend on which manual pages a machine has.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const MAN = '/usr/share/man';
const SECTIONS = ['man1', 'man2', 'man3', 'man5', 'man7', 'man8'];
const OUT = join(import.meta.dirname, 'data');
const CONTENT_CHARS = 2000;
const QUERIES = 400;

const hash = (s: string) => createHash('sha1').update(s).digest('hex');

function sources(): string[] {
  const files: string[] = [];
  for (const section of SECTIONS) {
    for (const name of readdirSync(join(MAN, section))) {
      const path = join(MAN, section, name);
      if (!lstatSync(path).isFile()) continue; // aliases are symlinks: the same page twice
      // gcloud's ~16k generated pages would swamp the rest; its alpha/beta copies repeat GA pages.
      if (name.startsWith('gcloud_alpha') || name.startsWith('gcloud_beta')) continue;
      if (name.startsWith('gcloud') && hash(name) > '4') continue; // ~1/4 of the GA pages
      files.push(path);
    }
  }
  return files.sort();
}

async function renderWith(source: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = execFile('groff', ['-man', '-Tutf8', '-rLL=1000n', '-P', '-cbu'], { maxBuffer: 1 << 26 }, (_e, out) =>
      resolve(out || undefined),
    );
    child.stdin?.end(source);
  });
}

interface Page {
  id: string;
  title: string;
  description: string;
  content: string;
}

function parse(id: string, text: string): Page | undefined {
  const lines = text.split('\n').map((l) => l.trimEnd());
  const nameAt = lines.findIndex((l) => /^(NAME|名前|NOM|NOMBRE)\s*$/.test(l.trim()));
  if (nameAt < 0) return undefined;
  let end = nameAt + 1;
  while (end < lines.length && !/^[A-Z][A-Z ]+$/.test(lines[end]!)) end++;
  const nameText = lines
    .slice(nameAt + 1, end)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const m = /^(.+?)\s+(?:-|\\-|—|–)\s+(.+)$/.exec(nameText);
  if (!m) return undefined;
  const content = lines.slice(end).join('\n').replace(/\s+/g, ' ').trim().slice(0, CONTENT_CHARS);
  if (content.length < 200) return undefined;
  return { id, title: m[1]!.trim(), description: m[2]!.trim(), content };
}

async function main(): Promise<void> {
  const files = sources();
  const pages: Page[] = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const text = await renderWith(
        (file.endsWith('.gz') ? gunzipSync(readFileSync(file)) : readFileSync(file)).toString('utf8'),
      ).catch(() => undefined);
      if (!text) continue;
      const id = file.slice(MAN.length + 1).replace(/\.gz$/, '');
      const page = parse(id, text);
      if (page) pages.push(page);
    }
  };
  await Promise.all([worker(), worker()]);
  pages.sort((a, b) => a.id.localeCompare(b.id));
  // A description shared by two pages names no single page: such pages can be documents, not queries.
  const byDescription = new Map<string, number>();
  for (const p of pages)
    byDescription.set(p.description.toLowerCase(), (byDescription.get(p.description.toLowerCase()) ?? 0) + 1);
  const candidates = pages.filter(
    (p) => byDescription.get(p.description.toLowerCase()) === 1 && p.description.split(/\s+/).length >= 3,
  );
  const queries = candidates.sort((a, b) => hash(a.id).localeCompare(hash(b.id))).slice(0, QUERIES);
  writeFileSync(
    join(OUT, 'corpus.jsonl'),
    pages.map((p) => JSON.stringify({ id: p.id, title: p.title, content: p.content })).join('\n') + '\n',
  );
  writeFileSync(
    join(OUT, 'queries.jsonl'),
    queries.map((q, i) => JSON.stringify({ id: `q${i + 1}`, text: q.description })).join('\n') + '\n',
  );
  writeFileSync(join(OUT, 'qrels.tsv'), queries.map((q, i) => `q${i + 1}\t${q.id}\t1`).join('\n') + '\n');
  console.log(`${files.length} pages read, ${pages.length} documents, ${queries.length} queries`);
}

await main();
