import { describe, expect, it } from 'vitest';
import { importsOf, resolveImport, type SourceFile, sourceFiles } from './source-files.js';

/**
 * No circles in the import graph (type imports included): a module can be read, tested and moved
 * after the modules it imports, never together with them. Over the server's code and the console's.
 */

/** The repository file a relative import names (`./x.js` is `x.ts`; the console imports without extension). */
function targetFile(file: SourceFile, specifier: string, known: Set<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolveImport(file, specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  return [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${base}/index.ts`, `${base}/index.tsx`].find((c) =>
    known.has(c),
  );
}

/** The circles of the graph: its strongly connected components of more than one file, or a file importing itself. */
function importCircles(files: SourceFile[]): string[][] {
  const known = new Set(files.map((file) => file.path));
  const edges = new Map(
    files.map((file) => [file.path, importsOf(file).flatMap((specifier) => targetFile(file, specifier, known) ?? [])]),
  );
  // Tarjan's algorithm, iterative: the graph is a few hundred files deep at most, but no recursion at all is simpler to trust.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work: [string, number][] = [[root, 0]];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const [node, at] = frame;
      const targets = edges.get(node) ?? [];
      if (at < targets.length) {
        frame[1]++;
        const target = targets[at]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(node)!));
      if (low.get(node) !== index.get(node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || targets.includes(node)) circles.push(component.sort());
    }
  }
  return circles;
}

describe('import graph', () => {
  it('has no circles in src/ and the console', () => {
    const files = sourceFiles(['src', 'web/console/src']);
    expect(files.length).toBeGreaterThan(300);
    expect(importCircles(files)).toEqual([]);
  });

  it('finds a circle, a longer one through type imports, and a file importing itself (the guard itself works)', () => {
    const files: SourceFile[] = [
      { path: 'src/a.ts', text: "import { b } from './b.js';" },
      { path: 'src/b.ts', text: "export { a } from './a.js';" },
      { path: 'src/c/x.ts', text: "import type { Y } from './y.js';\nimport { z } from '../z.js';" },
      { path: 'src/c/y.ts', text: "import type { Z } from '../z.js';" },
      { path: 'src/z.ts', text: "const x = await import('./c/x.js');" },
      { path: 'web/p.tsx', text: "import type { P } from './p';" },
      { path: 'src/leaf.ts', text: "import { a } from './a.js';" },
    ];
    expect(importCircles(files)).toEqual([
      ['src/a.ts', 'src/b.ts'],
      ['src/c/x.ts', 'src/c/y.ts', 'src/z.ts'],
      ['web/p.tsx'],
    ]);
  });
});
