/**
 * Builds data/distractors.tsv, the short off-topic documents of the mixed-corpus benchmark (see
 * data/README.md): one document per Debian package known to apt (`apt-cache dumpavail`), its name as
 * the title and its one-line description as the content (`name<TAB>description` a line). Run once: `npx tsx
 * bench/search/build-distractors.ts`; the output is committed, so the benchmark does not depend on a
 * machine's package lists.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const OUT = join(import.meta.dirname, 'data', 'distractors.tsv');
const dump = execFileSync('apt-cache', ['dumpavail'], { maxBuffer: 1 << 30, encoding: 'utf8' });
const byName = new Map<string, string>();
for (const stanza of dump.split(/\n\n+/)) {
  const name = /^Package: (.+)$/m.exec(stanza)?.[1]?.trim();
  const description = /^Description: (.+)$/m.exec(stanza)?.[1]?.trim();
  if (name && description && !byName.has(name)) byName.set(name, description);
}
const lines = [...byName.entries()]
  .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  .map(([name, description]) => `${name}\t${description.replaceAll('\t', ' ')}`);
writeFileSync(OUT, `${lines.join('\n')}\n`);
console.log(`${lines.length} distractors written to ${OUT}`);
