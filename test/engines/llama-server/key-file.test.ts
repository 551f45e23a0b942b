import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { childKey } from '../../../src/engines/chat/llama-server/key-file.js';

describe("the managed engine's key file", () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'key-file-test-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('is readable by this user only, holds the key, and goes on remove()', async () => {
    const key = await childKey(dir);
    expect((await readFile(key.file, 'utf8')).trim()).toBe(key.value);
    expect((await stat(key.file)).mode & 0o777).toBe(0o600);
    expect(path.basename(path.dirname(key.file))).toMatch(new RegExp(`^gen-platform-llama-server-${process.pid}-`));
    await key.remove();
    expect(await readdir(dir)).toEqual([]);
  });

  it("removes the folders of servers that no longer run (killed outright), and no one else's", async () => {
    // pid_max is at most 2^22 on Linux: this pid never runs.
    const dead = path.join(dir, 'gen-platform-llama-server-9999999-abc');
    const alive = path.join(dir, `gen-platform-llama-server-${process.ppid}-def`);
    const other = path.join(dir, 'something-else-9999999-x');
    for (const d of [dead, alive, other]) {
      await mkdir(d);
      await writeFile(path.join(d, 'api-key'), 'k\n');
    }
    const key = await childKey(dir);
    const left = await readdir(dir);
    expect(left).not.toContain(path.basename(dead));
    expect(left).toContain(path.basename(alive));
    expect(left).toContain(path.basename(other));
    expect(left).toContain(path.basename(path.dirname(key.file)));
  });
});
