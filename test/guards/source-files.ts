import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface SourceFile {
  /** Relative to the repository, with `/` separators: `src/services/chat/chat-service.ts`. */
  path: string;
  text: string;
}

/** Every TypeScript file under `src/` (or under the given folders of the repository). */
export function sourceFiles(roots: readonly string[] = ['src']): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (/\.(ts|mts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
        out.push({ path: rel, text: readFileSync(path.join(ROOT, rel), 'utf8') });
    }
  };
  for (const root of roots) walk(root);
  return out;
}

/** The module specifiers a file imports or re-exports, static and dynamic. */
export function importsOf(file: SourceFile): string[] {
  return ts.preProcessFile(file.text, true, true).importedFiles.map((f) => f.fileName);
}

/** A relative specifier resolved to a repository path (`src/server/ids.js`); bare packages as they are. */
export function resolveImport(file: SourceFile, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  return path.posix.normalize(path.posix.join(path.posix.dirname(file.path), specifier));
}

export interface CodeToken {
  kind: 'identifier' | 'string' | 'process.env';
  text: string;
  line: number;
}

/**
 * The identifiers, string literals and `process.env` reads of a file's code, from its syntax tree:
 * comments are not code (one may explain what PostgreSQL does; code may not depend on it outside
 * its folder).
 */
export function codeTokens(file: SourceFile): CodeToken[] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
  const out: CodeToken[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      out.push({ kind: 'identifier', text: node.text, line: lineOf(node) });
    } else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      out.push({ kind: 'string', text: node.text, line: lineOf(node) });
    }
    if (
      (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'process'
    ) {
      const name = ts.isPropertyAccessExpression(node)
        ? node.name.text
        : ts.isStringLiteralLike(node.argumentExpression)
          ? node.argumentExpression.text
          : '';
      if (name === 'env') out.push({ kind: 'process.env', text: 'process.env', line: lineOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}
