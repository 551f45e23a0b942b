import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { type SourceFile, sourceFiles } from './source-files.js';

/**
 * Packages whose import alone fills tens of megabytes of heap, for features a server may never
 * use. Imported where they are first needed (`await import(...)`), never at the top of a module:
 * a heap carried from start-up is scanned by every full garbage collection, on every request path.
 */
const HEAVY: Record<string, string> = {
  'eld/medium': 'about 60 MB (n-gram tables), for source_lang auto',
  'eld/small': 'n-gram tables',
  'eld/large': 'n-gram tables',
  'opencc-js': 'conversion tables, for telling Chinese scripts apart',
  'playwright-core': 'about 30 MB, for the reader’s browser path',
  // Tracing and pretty logs are off by default; off, not one module of them is loaded.
  '@opentelemetry/api': 'tracing (telemetry/otel-tracer.ts)',
  '@opentelemetry/core': 'tracing',
  '@opentelemetry/resources': 'tracing',
  '@opentelemetry/sdk-trace': 'tracing',
  '@opentelemetry/otlp-transformer': 'tracing',
  'pino-pretty': 'readable log lines on a terminal (cli/logger.ts)',
  // About 8 MB with zod and ajv, for the remote MCP servers (app/mcp-scope.ts loads them on first use).
  '@modelcontextprotocol/sdk/server/index.js': 'the MCP servers',
  '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js': 'the MCP servers',
  '@modelcontextprotocol/sdk/types.js': 'the MCP servers',
  '@modelcontextprotocol/sdk/validation/ajv': 'the MCP servers',
};

/** `file → package` for each static import of a heavy package that brings in values, not just types. */
function eagerImports(files: SourceFile[] = sourceFiles()): string[] {
  const out: string[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier) || !(specifier.text in HEAVY)) continue;
      if (ts.isImportDeclaration(statement) && typeOnly(statement)) continue;
      if (ts.isExportDeclaration(statement) && statement.isTypeOnly) continue;
      out.push(`${file.path} → ${specifier.text}`);
    }
  }
  return out;
}

function typeOnly(statement: ts.ImportDeclaration): boolean {
  const clause = statement.importClause;
  if (!clause) return false; // a bare `import 'x'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly);
}

describe('heavy packages are imported on first use', () => {
  it('no module imports one at its top', () => {
    expect(eagerImports()).toEqual([]);
  });

  it('catches an eager import, and lets type imports and dynamic imports through (the guard itself works)', () => {
    const files = [
      { path: 'src/a.ts', text: "import { eld } from 'eld/medium';" },
      { path: 'src/b.ts', text: "import type { Browser } from 'playwright-core';" },
      { path: 'src/c.ts', text: "import { type Browser, type Route } from 'playwright-core';" },
      { path: 'src/d.ts', text: "import { type Browser, chromium } from 'playwright-core';" },
      { path: 'src/e.ts', text: "const { Converter } = await import('opencc-js');" },
      { path: 'src/f.ts', text: "import 'opencc-js';" },
    ];
    expect(eagerImports(files)).toEqual([
      'src/a.ts → eld/medium',
      'src/d.ts → playwright-core',
      'src/f.ts → opencc-js',
    ]);
  });
});
