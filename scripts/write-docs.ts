import { readFileSync, writeFileSync } from 'node:fs';
import { fillSections, GENERATED_SECTIONS } from '../src/docs/reference-tables.js';

// `npm run docs`: regenerates the tables that docs/*.md embed (a test checks they are current).
for (const [file, sections] of Object.entries(GENERATED_SECTIONS)) {
  writeFileSync(file, fillSections(readFileSync(file, 'utf8'), sections));
  process.stdout.write(`wrote ${file}\n`);
}
