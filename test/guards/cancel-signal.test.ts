import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { type SourceFile, sourceFiles } from './source-files.js';

/**
 * One cancellation type crosses every seam (docs/architecture.md, "One cancellation type"): what a
 * function takes is a `CancelSignal`, never an `AbortSignal`, so a caller never has to convert the
 * edge's `RequestCancel`. A value a module makes for an API that wants a real AbortSignal (`fetch`,
 * `timers/promises`) may be one; only util/cancel-signal.ts converts.
 */
const EXEMPT = new Set(['src/util/cancel-signal.ts']);

/** `file:line` of every AbortSignal a parameter or an optional (input) property is typed with. */
function abortSignalInputs(files: SourceFile[] = sourceFiles()): string[] {
  const out: string[] = [];
  for (const file of files) {
    if (EXEMPT.has(file.path) || !file.text.includes('AbortSignal')) continue;
    const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node, input: boolean): void => {
      const takes = input || ts.isParameter(node) || (ts.isPropertySignature(node) && node.questionToken !== undefined);
      if (takes && ts.isTypeReferenceNode(node) && node.typeName.getText(source) === 'AbortSignal') {
        out.push(`${file.path}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
      }
      ts.forEachChild(node, (child) => visit(child, takes && !ts.isBlock(child)));
    };
    visit(source, false);
  }
  return out;
}

describe('one cancellation type', () => {
  it('no function or option takes an AbortSignal', () => {
    expect(abortSignalInputs()).toEqual([]);
  });

  it('catches an AbortSignal parameter or option (the guard itself works)', () => {
    const bad = [
      { path: 'src/services/a.ts', text: 'export function f(signal: AbortSignal) {}' },
      { path: 'src/services/b.ts', text: 'export interface O {\n  signal?: AbortSignal;\n}' },
      { path: 'src/services/c.ts', text: 'export type Hook = (deadline: AbortSignal) => Promise<void>;' },
      { path: 'src/services/d.ts', text: 'export function g(o: { signal?: AbortSignal | undefined }) {}' },
      // Made here for fetch: a value, not an input.
      { path: 'src/services/e.ts', text: 'export interface D {\n  readonly signal: AbortSignal;\n}' },
      { path: 'src/services/f.ts', text: 'const s = AbortSignal.timeout(5);' },
    ];
    expect(abortSignalInputs(bad)).toEqual([
      'src/services/a.ts:1',
      'src/services/b.ts:2',
      'src/services/c.ts:1',
      'src/services/d.ts:1',
    ]);
  });
});
