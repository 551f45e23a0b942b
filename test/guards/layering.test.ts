import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, ROOT, resolveImport, sourceFiles } from './source-files.js';

/**
 * Dependencies point down (docs/architecture.md, "Layers"): every top-level folder of `src/` sits in
 * one layer, and a file imports only from its own folder or from a layer below its own, never from
 * beside or above. From the top: the entry points, the app assembly, routes, the HTTP edge's
 * helpers, services, then what services build on, down to the error types.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['main.ts'],
  ['cli', 'docs', 'test-models'],
  ['app'],
  ['routes'],
  ['server'],
  ['services'],
  ['engines', 'search', 'files'],
  ['stores', 'telemetry'],
  ['net', 'api'],
  ['config', 'ids'],
  ['models'],
  ['util'],
  ['errors', 'types'],
];

const topOf = (repoPath: string): string | undefined => repoPath.match(/^src\/([^/]+)/)?.[1]?.replace(/\.js$/, '.ts');
const layerOf = (top: string): number => LAYERS.findIndex((layer) => layer.includes(top));

/** `file → import` pairs that reach beside or up a layer. */
function upwardImports(files = sourceFiles()): string[] {
  const out: string[] = [];
  for (const file of files) {
    const from = topOf(file.path);
    if (!from) continue;
    for (const specifier of importsOf(file)) {
      const target = resolveImport(file, specifier);
      const to = topOf(target);
      if (!to || to === from) continue;
      if (layerOf(to) <= layerOf(from)) out.push(`${file.path} → ${target}`);
    }
  }
  return out;
}

describe('layering', () => {
  it('places every top-level folder and file of src/ in a layer', () => {
    const tops = readdirSync(path.join(ROOT, 'src'));
    expect(tops.filter((top) => layerOf(top) < 0)).toEqual([]);
  });

  it('no file imports from a layer beside or above its own', () => {
    expect(upwardImports()).toEqual([]);
  });

  it('catches an upward or sideways import (the guard itself works)', () => {
    const bad = [
      { path: 'src/services/chat/x.ts', text: "import { newPlatformId } from '../../server/ids.js';" },
      { path: 'src/engines/chat/y.ts', text: "export { buildApp } from '../../app/app.js';" },
      { path: 'src/stores/z.ts', text: "const m = await import('../routes/chat.js');" },
      { path: 'src/routes/w.ts', text: "import { sendEventStream } from '../server/event-stream.js';" },
      { path: 'src/util/v.ts', text: "import { loadConfig } from '../config/load.js';" },
      { path: 'src/engines/u.ts', text: "import type { SearchIndex } from '../search/types.js';" },
      { path: 'src/net/t.ts', text: "import { ApiError } from '../errors/api-error.js';" },
    ];
    expect(upwardImports(bad)).toEqual([
      'src/services/chat/x.ts → src/server/ids.js',
      'src/engines/chat/y.ts → src/app/app.js',
      'src/stores/z.ts → src/routes/chat.js',
      'src/util/v.ts → src/config/load.js',
      'src/engines/u.ts → src/search/types.js',
    ]);
  });
});
