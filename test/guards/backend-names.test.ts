import { describe, expect, it } from 'vitest';
import { codeTokens, type SourceFile, sourceFiles } from './source-files.js';

/** Backends by name, compared without case, `-` or `_`: `llama-cpp`, `llamaCppFactory`, `SqliteStore`. */
// Not `.`: an upstream product ("llama.cpp server") is not our engine (`llama-cpp`).
const BACKENDS = ['llamacpp', 'openaicompatible', 'sqlite', 'postgres', 'searxng', 'redis', 'comfyui', 'automatic1111'];

/**
 * Where any backend may be named: the config (it lists what a deployment may choose) and the
 * registries, whose one job is to map a name to its implementation.
 */
const REGISTRIES = [
  'src/config/',
  'src/engines/chat/registry.ts',
  'src/stores/open-store.ts',
  'src/search/open-index.ts',
  'src/search/open-engines.ts',
  'src/engines/image/registry.ts',
  'src/services/limits/open-limiter.ts',
  // Writes GGUF test models for the embedded engine and a config that points it at them.
  'src/test-models/',
];

/**
 * Backends built on others, which name them in their own folder: the managed llama-server engine
 * is the OpenAI-compatible engine speaking to llama.cpp's server, built from the source that the
 * embedded engine's package ships.
 */
const COMPOSED: Record<string, readonly string[]> = {
  'src/engines/chat/llama-server/': ['openaicompatible', 'llamacpp'],
};

const composes = (path: string, backend: string) =>
  Object.entries(COMPOSED).some(([dir, backends]) => path.startsWith(dir) && backends.includes(backend));

/** Where `process.env` may be read: start-up (docs/architecture.md, "Conventions": config is read once). */
const ENVIRONMENT = ['src/main.ts', 'src/cli/', 'src/config/'];

const squash = (text: string) => text.toLowerCase().replace(/[-_\s]/g, '');

/** A backend's own folder is any folder on the path that bears its name (`stores/sqlite/`, `search/sqlite-fts/`). */
const ownFolder = (path: string, backend: string) =>
  path
    .split('/')
    .slice(0, -1)
    .some((dir) => squash(dir).includes(backend));

function backendNames(files: SourceFile[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    if (REGISTRIES.some((allowed) => file.path.startsWith(allowed))) continue;
    for (const token of codeTokens(file)) {
      if (token.kind === 'process.env') continue;
      const text = squash(token.text);
      for (const backend of BACKENDS) {
        if (text.includes(backend) && !ownFolder(file.path, backend) && !composes(file.path, backend))
          out.push(`${file.path}:${token.line} names ${backend} (${JSON.stringify(token.text)})`);
      }
    }
  }
  return out;
}

function environmentReads(files: SourceFile[]): string[] {
  return files
    .filter((file) => !ENVIRONMENT.some((allowed) => file.path.startsWith(allowed)))
    .flatMap((file) =>
      codeTokens(file)
        .filter((t) => t.kind === 'process.env')
        .map((t) => `${file.path}:${t.line} reads process.env`),
    );
}

describe('backend names stay in their own folders', () => {
  it('no engine, store or search backend is named outside its folder or a registry', () => {
    expect(backendNames(sourceFiles())).toEqual([]);
  });

  it('nothing but start-up reads process.env', () => {
    expect(environmentReads(sourceFiles())).toEqual([]);
  });

  it('catches names and environment reads in code, not in comments (the guard itself works)', () => {
    const files: SourceFile[] = [
      { path: 'src/services/chat/a.ts', text: "// SQLite is fine in a comment\nif (kind === 'llama-cpp') x();" },
      { path: 'src/services/b.ts', text: "import { RedisLimiter } from '../limits/redis/limiter.js';" },
      { path: 'src/stores/sqlite/c.ts', text: "import Database from 'better-sqlite3';" },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      { path: 'src/engines/chat/pool.ts', text: 'const url = `${base}/comfyui`;\nconst t = process.env.TOKEN;' },
      { path: 'src/cli/serve.ts', text: "const port = process.env['PORT'];" },
    ];
    expect(backendNames(files)).toEqual([
      'src/services/chat/a.ts:2 names llamacpp ("llama-cpp")',
      'src/services/b.ts:1 names redis ("RedisLimiter")',
      'src/services/b.ts:1 names redis ("../limits/redis/limiter.js")',
      'src/engines/chat/pool.ts:1 names comfyui ("/comfyui")',
    ]);
    expect(environmentReads(files)).toEqual(['src/engines/chat/pool.ts:2 reads process.env']);
  });
});
