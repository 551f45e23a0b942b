import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { type SourceFile, sourceFiles } from './source-files.js';

/**
 * Every URL the server fetches goes through src/net/ (docs/architecture.md, "Outbound fetches"):
 * there, addresses are checked, redirects re-checked, bodies and time bounded, failures named in one
 * vocabulary. No other module opens a connection of its own: no value import of undici, no HTTP
 * client of node (http's request/get/Agent, https, http2, net and tls connections), no global
 * `fetch` or `WebSocket`. Type-only imports of undici are allowed: they call nothing (an engine's
 * relay implements undici's handler interface on a dispatcher that src/net made).
 */
const ALLOWED_DIR = 'src/net/';

const CLIENT_MODULES: Record<string, 'all' | readonly string[]> = {
  undici: 'all',
  https: 'all',
  'node:https': 'all',
  http2: 'all',
  'node:http2': 'all',
  http: ['request', 'get', 'Agent', 'ClientRequest', 'globalAgent'],
  'node:http': ['request', 'get', 'Agent', 'ClientRequest', 'globalAgent'],
  net: ['connect', 'createConnection', 'Socket'],
  'node:net': ['connect', 'createConnection', 'Socket'],
  tls: ['connect', 'TLSSocket'],
  'node:tls': ['connect', 'TLSSocket'],
};

/** `file:line what` for every outbound call or client import outside src/net. */
function outboundViolations(files: readonly SourceFile[] = sourceFiles()): string[] {
  const out: string[] = [];
  for (const file of files) {
    if (file.path.startsWith(ALLOWED_DIR)) continue;
    const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
    const at = (node: ts.Node) =>
      `${file.path}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const names = importedValues(node);
        const rule = CLIENT_MODULES[node.moduleSpecifier.text];
        const hit = rule === 'all' ? names : rule ? names.filter((n) => rule.includes(n) || n === '*') : [];
        if (hit.length > 0) out.push(`${at(node)} imports ${hit.join(', ')} from ${node.moduleSpecifier.text}`);
      } else if (
        ts.isExportDeclaration(node) &&
        !node.isTypeOnly &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier) &&
        CLIENT_MODULES[node.moduleSpecifier.text]
      ) {
        out.push(`${at(node)} re-exports ${node.moduleSpecifier.text}`);
      } else if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const [first] = node.arguments;
        if (callee.kind === ts.SyntaxKind.ImportKeyword && first && ts.isStringLiteral(first)) {
          if (CLIENT_MODULES[first.text]) out.push(`${at(node)} imports ${first.text} dynamically`);
        } else if (ts.isIdentifier(callee) && callee.text === 'fetch') out.push(`${at(node)} calls fetch`);
      } else if (
        ts.isPropertyAccessExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'globalThis' &&
        (node.name.text === 'fetch' || node.name.text === 'WebSocket')
      ) {
        out.push(`${at(node)} uses globalThis.${node.name.text}`);
      } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'WebSocket') {
        out.push(`${at(node)} opens a WebSocket`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

/** The value bindings an import brings in (`*` for a namespace or default import); type-only ones are left out. */
function importedValues(node: ts.ImportDeclaration): string[] {
  const clause = node.importClause;
  if (!clause) return ['(side effects)'];
  if (clause.isTypeOnly) return [];
  const names: string[] = [];
  if (clause.name) names.push('*');
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
  if (bindings && ts.isNamedImports(bindings)) {
    for (const element of bindings.elements)
      if (!element.isTypeOnly) names.push((element.propertyName ?? element.name).text);
  }
  return names;
}

describe('outbound fetches', () => {
  it('only src/net/ opens connections', () => {
    expect(outboundViolations()).toEqual([]);
  });

  it('catches every way around it (the guard itself works)', () => {
    const bad: SourceFile[] = [
      { path: 'src/services/a.ts', text: "import { request } from 'undici';" },
      { path: 'src/services/b.ts', text: "import { Agent, type Dispatcher } from 'undici';" },
      { path: 'src/engines/c.ts', text: "import https from 'node:https';" },
      { path: 'src/search/d.ts', text: "import { get } from 'node:http';" },
      { path: 'src/services/e.ts', text: 'const r = await fetch(url);' },
      { path: 'src/telemetry/f.ts', text: 'const f = globalThis.fetch;' },
      { path: 'src/services/g.ts', text: "const u = await import('undici');" },
      { path: 'src/services/h.ts', text: "import { connect } from 'node:net';" },
      { path: 'src/services/i.ts', text: "export { fetch } from 'undici';" },
      { path: 'src/services/j.ts', text: 'const ws = new WebSocket(url);' },
    ];
    expect(outboundViolations(bad)).toEqual([
      'src/services/a.ts:1 imports request from undici',
      'src/services/b.ts:1 imports Agent from undici',
      'src/engines/c.ts:1 imports * from node:https',
      'src/search/d.ts:1 imports get from node:http',
      'src/services/e.ts:1 calls fetch',
      'src/telemetry/f.ts:1 uses globalThis.fetch',
      'src/services/g.ts:1 imports undici dynamically',
      'src/services/h.ts:1 imports connect from node:net',
      'src/services/i.ts:1 re-exports undici',
      'src/services/j.ts:1 opens a WebSocket',
    ]);
  });

  it('lets through what opens nothing', () => {
    const fine: SourceFile[] = [
      { path: 'src/engines/a.ts', text: "import type { Dispatcher } from 'undici';" },
      { path: 'src/engines/b.ts', text: "import { type Agent, type Dispatcher } from 'undici';" },
      { path: 'src/server/c.ts', text: "import { createServer, type Server } from 'node:http';" },
      { path: 'src/services/d.ts', text: 'await source.fetch(onProgress, signal);' },
      { path: 'src/net/e.ts', text: "import { Agent } from 'undici';" },
    ];
    expect(outboundViolations(fine)).toEqual([]);
  });
});
