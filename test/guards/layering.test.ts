import { describe, expect, it } from 'vitest';
import { importsOf, resolveImport, sourceFiles } from './source-files.js';

/**
 * Dependencies point down (design.md §1): the app assembly → routes → the HTTP edge's helpers →
 * services → engines, stores, search, files. A layer may import from below itself, never above.
 */
const ABOVE: Record<string, readonly string[]> = {
  'src/routes/': ['src/app/'],
  'src/server/': ['src/app/', 'src/routes/'],
  'src/services/': ['src/app/', 'src/routes/', 'src/server/'],
  'src/engines/': ['src/app/', 'src/routes/', 'src/server/', 'src/services/'],
  'src/stores/': ['src/app/', 'src/routes/', 'src/server/', 'src/services/'],
  'src/search/': ['src/app/', 'src/routes/', 'src/server/', 'src/services/'],
  'src/files/': ['src/app/', 'src/routes/', 'src/server/', 'src/services/'],
};

/** `file → import` pairs that reach up a layer. */
function upwardImports(files = sourceFiles()): string[] {
  const out: string[] = [];
  for (const file of files) {
    const layer = Object.keys(ABOVE).find((prefix) => file.path.startsWith(prefix));
    if (!layer) continue;
    for (const specifier of importsOf(file)) {
      const target = resolveImport(file, specifier);
      if (ABOVE[layer]!.some((above) => target.startsWith(above))) out.push(`${file.path} → ${target}`);
    }
  }
  return out;
}

describe('layering', () => {
  it('no file imports from a layer above its own', () => {
    expect(upwardImports()).toEqual([]);
  });

  it('catches an upward import (the guard itself works)', () => {
    const bad = [
      { path: 'src/services/chat/x.ts', text: "import { newPlatformId } from '../../server/ids.js';" },
      { path: 'src/engines/chat/y.ts', text: "export { buildApp } from '../../app/app.js';" },
      { path: 'src/stores/z.ts', text: "const m = await import('../routes/chat.js');" },
      { path: 'src/routes/w.ts', text: "import { sendEventStream } from '../server/event-stream.js';" },
    ];
    expect(upwardImports(bad)).toEqual([
      'src/services/chat/x.ts → src/server/ids.js',
      'src/engines/chat/y.ts → src/app/app.js',
      'src/stores/z.ts → src/routes/chat.js',
    ]);
  });
});
