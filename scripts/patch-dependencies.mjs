// `npm install` / `npm ci` run this (postinstall): small fixes to installed dependencies that their
// upstreams have not shipped. Each patch is exact text; a file already patched is left alone, and a
// file whose text is neither the original nor the patched one (another version), or that cannot be
// written, is reported and left alone: the server works without the patch, only slower, so the
// install never fails for it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/**
 * linkedom gives every node, at construction, an empty listener Map held in a module-wide WeakMap.
 * Pages have tens of thousands of nodes and almost none get a listener, so the reader paid for a
 * Map and an ephemeron per node: a quarter of its CPU, in the constructor and in the garbage
 * collector's work on the ephemerons. The map is now made on the node's first addEventListener;
 * every reader of the WeakMap already handles a missing entry except removeEventListener, which
 * now does too.
 */
const linkedomListeners = {
  pkg: 'linkedom',
  files: ['esm/interface/event-target.js', 'cjs/interface/event-target.js'],
  edits: [
    [
      '  constructor() {\n    wm.set(this, new Map);\n  }',
      '  // gen-platform: the listener map is made on the first addEventListener (scripts/patch-dependencies.mjs)\n  constructor() {}',
    ],
    [
      '    const map = wm.get(this);\n    if (!map.has(type)) \n',
      '    let map = wm.get(this);\n    if (!map) wm.set(this, (map = new Map));\n    if (!map.has(type)) \n',
    ],
    [
      '    const map = wm.get(this);\n    if (map.has(type)) {',
      '    const map = wm.get(this);\n    if (map && map.has(type)) {',
    ],
  ],
};

/**
 * The GFM plugin's tests of whether a table holds a table, a list, a heading or code walk the table
 * and read `node.childNodes` twice per child. linkedom builds that list afresh on every read (it
 * walks the children), so a table of n rows cost n^2: 3.4 s for a 100 KB table, minutes for a
 * 1 MB one. Each node's list is now read once; the walk and its answers are the same.
 */
const gfmChildLists = {
  pkg: '@joplin/turndown-plugin-gfm',
  files: ['lib/turndown-plugin-gfm.cjs.js'],
  edits: [
    [
      'function nodeContainsTable(node) {\n  if (!node.childNodes) return false;\n\n  for (let i = 0; i < node.childNodes.length; i++) {\n    const child = node.childNodes[i];',
      'function nodeContainsTable(node) {\n  // gen-platform: the child list is read once (scripts/patch-dependencies.mjs)\n  const children = node.childNodes;\n  if (!children) return false;\n\n  for (let i = 0; i < children.length; i++) {\n    const child = children[i];',
    ],
    [
      'const nodeContains = (node, types) => {\n  if (!node.childNodes) return false;\n\n  for (let i = 0; i < node.childNodes.length; i++) {\n    const child = node.childNodes[i];',
      'const nodeContains = (node, types) => {\n  // gen-platform: the child list is read once (scripts/patch-dependencies.mjs)\n  const children = node.childNodes;\n  if (!children) return false;\n\n  for (let i = 0; i < children.length; i++) {\n    const child = children[i];',
    ],
  ],
};

export const patches = [linkedomListeners, gfmChildLists];

/**
 * One file's text with a patch's edits made: `patched` when they were made now, `already` when the
 * text is the patched one, `unknown` when it is neither (each edit's original must occur once).
 */
export function patchText(text, edits) {
  if (edits.every(([, to]) => text.includes(to))) return { state: 'already', text };
  if (!edits.every(([from]) => text.split(from).length === 2)) return { state: 'unknown', text };
  for (const [from, to] of edits) text = text.replace(from, () => to);
  return { state: 'patched', text };
}

function packageDir(name) {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

/** Patches the package's files in place; `write` is the file writer (a test passes one that fails). */
export function patchInstalled(patch, dir = packageDir(patch.pkg), write = writeFileSync) {
  if (!dir) return;
  for (const file of patch.files) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    try {
      const { state, text } = patchText(readFileSync(path, 'utf8'), patch.edits);
      if (state === 'unknown')
        console.warn(`patch-dependencies: ${patch.pkg}/${file} is not the text this patch expects; left as it is`);
      if (state === 'patched') write(path, text);
    } catch (error) {
      console.warn(`patch-dependencies: ${patch.pkg}/${file} could not be patched (${error.message}); left as it is`);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) for (const patch of patches) patchInstalled(patch);
