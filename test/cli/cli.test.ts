import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';

/** The command line as a newcomer meets it: help, usage errors that name the flag, exit codes. */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    cwd: dir,
    // No default model: nothing here may reach for the network.
    vars: { GEN_PLATFORM_DATA: join(dir, 'data') },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const usageCount = (text: string) => text.split('Usage:').length - 1;

describe('gen-platform --help', () => {
  it('prints one usage block with every command grouped, the common flags and the exit codes', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const { code, out } = await run(flag);
      expect(code).toBe(0);
      expect(usageCount(out)).toBe(1);
      for (const line of ['Serve the API:', 'API keys:', 'Models:', 'Web search index:', 'Exit codes:', '--data DIR']) {
        expect(out).toContain(line);
      }
      for (const command of ['serve', 'keys create', 'keys revoke ID', 'models pull', 'index crawl']) {
        expect(out).toContain(`gen-platform ${command}`);
      }
    }
  });

  it('without a command, prints the help on stderr and exits 2', async () => {
    const { code, out, err } = await run();
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(usageCount(err)).toBe(1);
  });

  it('names an unknown command', async () => {
    const { code, err } = await run('serv');
    expect(code).toBe(2);
    expect(err).toContain('unknown command "serv"');
  });
});

describe('serve', () => {
  it('--help shows its usage and options', async () => {
    const { code, out } = await run('serve', '--help');
    expect(code).toBe(0);
    expect(usageCount(out)).toBe(1);
    expect(out).toContain('gen-platform serve [--port N]');
    expect(out).toContain('Exit codes:');
  });

  it.each([
    [['--prot', '80'], 'unknown option --prot'],
    [['--port'], '--port needs a value'],
    [['--port', 'eighty'], '--port must be a whole number'],
  ])('%j → exit 2, named, with the usage of serve', async (args, message) => {
    const { code, err } = await run('serve', ...args);
    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(err).toContain('gen-platform serve [--port N]');
  });
});

describe('keys', () => {
  it('--help lists create, list and revoke', async () => {
    const { code, out } = await run('keys', '--help');
    expect(code).toBe(0);
    expect(out).toMatch(/keys create --name NAME/);
    expect(out).toContain('gen-platform keys list');
    expect(out).toContain('gen-platform keys revoke ID');
  });

  it.each([
    [['create', '--nmae', 'x'], 'unknown option --nmae'],
    [['create', '--name'], '--name needs a value'],
    [['create'], 'keys create needs --name NAME'],
    [[], 'keys needs an action'],
    [['rotate'], 'unknown keys action "rotate"'],
    [['create', '--name', 'x', '--endpoints', 'admin'], '--endpoints takes general and/or coding'],
  ])('%j → exit 2, named, with the usage of keys', async (args, message) => {
    const { code, err } = await run('keys', ...args);
    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(err).toContain('gen-platform keys revoke ID');
  });

  it('creates, lists and revokes a key; an unknown id exits 1', async () => {
    const created = await run('keys', 'create', '--name', 'laptop', '--endpoints', 'general,coding');
    expect(created.code).toBe(0);
    const key = created.out.split('\n').at(-1)!;
    const id = key.split('.')[0]!;
    expect((await run('keys', 'list')).out).toContain(`${id}`);
    expect(await run('keys', 'revoke', id)).toMatchObject({ code: 0 });
    expect((await run('keys', 'revoke', '0'.repeat(32))).code).toBe(1);
  });
});

describe('models', () => {
  it('--help lists list and pull', async () => {
    const { code, out } = await run('models', '--help');
    expect(code).toBe(0);
    expect(out).toContain('gen-platform models list');
    expect(out).toContain('gen-platform models pull [MODEL_CODE...]');
  });

  it('names an unknown flag, a missing action and a code not served', async () => {
    expect((await run('models', 'list', '--al')).err).toContain('unknown option --al');
    const none = await run('models');
    expect(none.code).toBe(2);
    expect(none.err).toContain('models needs an action');
    // Refused before anything downloads: the default model is never fetched here.
    const pull = await run('models', 'pull', 'gen-99');
    expect(pull.code).toBe(2);
    expect(pull.err).toContain('not served here: gen-99');
    const missingConfig = await run('models', 'list', '--config', join(dir, 'missing.yaml'));
    expect(missingConfig.code).toBe(2);
  });
});

describe('index', () => {
  it('--help lists its actions', async () => {
    const { code, out } = await run('index', '--help');
    expect(code).toBe(0);
    for (const action of ['add', 'crawl', 'import', 'remove', 'stats'])
      expect(out).toContain(`gen-platform index ${action}`);
  });

  it('names an unknown flag and a missing value with the usage of index', async () => {
    for (const [args, message] of [
      [['crawl', 'http://x.test', '--depht', '2'], 'unknown option --depht'],
      [['add', 'http://x.test', '--collection'], '--collection needs a value'],
      [['add'], 'index add needs at least one URL'],
    ] as const) {
      const { code, err } = await run('index', ...args);
      expect(code).toBe(2);
      expect(err).toContain(message);
      expect(err).toContain('gen-platform index stats');
    }
  });

  it('stats exits 0 on an empty index', async () => {
    expect((await run('index', 'stats')).code).toBe(0);
  });
});
