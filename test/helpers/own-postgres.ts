import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './own-redis.js';
import { DATABASE_URL } from './postgres.js';

/** The PostgreSQL binaries (initdb, pg_ctl) of the newest installed version, if any. */
function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  const dir = versions.map((v) => path.join(root, v, 'bin')).find((d) => existsSync(path.join(d, 'pg_ctl')));
  return dir;
}

function postgresUid(): { uid: number; gid: number } | undefined {
  const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (r.status !== 0 || g.status !== 0) return undefined;
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}

/**
 * Why a throwaway cluster cannot be made here (for `it.skipIf`), or undefined when it can: the
 * binaries are needed, and as root (initdb refuses it) a `postgres` user to run them as.
 */
export function ownPostgresUnavailable(): string | undefined {
  if (!binDir()) return 'no PostgreSQL binaries under /usr/lib/postgresql/*/bin';
  if (process.getuid?.() === 0 && !postgresUid()) return 'running as root without a postgres user for initdb';
  return undefined;
}

/**
 * A PostgreSQL cluster of the test's own, in a temp dir on a free port, to stop, restart and kill
 * without touching the shared one (other tests' databases live there).
 */
export class OwnPostgres {
  private constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly bin: string,
    private readonly owner: { uid: number; gid: number } | undefined,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async start(): Promise<OwnPostgres> {
    const bin = binDir();
    if (!bin) throw new Error('no PostgreSQL binaries');
    const dir = mkdtempSync(path.join(tmpdir(), 'gen-platform-pg-'));
    const owner = process.getuid?.() === 0 ? postgresUid() : undefined;
    if (owner) chownSync(dir, owner.uid, owner.gid);
    chmodSync(dir, 0o700);
    const cluster = new OwnPostgres(dir, await freePort(), bin, owner);
    cluster.run('initdb', ['-D', cluster.data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    cluster.startServer();
    return cluster;
  }

  private get data(): string {
    return path.join(this.dir, 'data');
  }

  private run(tool: string, args: string[]): void {
    const exe = path.join(this.bin, tool);
    const [cmd, argv] = this.owner ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
    execFileSync(cmd, argv, { stdio: 'pipe', timeout: 60_000 });
  }

  /** Starts the server and waits until it accepts connections. */
  startServer(): void {
    this.run('pg_ctl', ['-D', this.data, '-o', this.serverOptions, '-l', path.join(this.dir, 'log'), '-w', 'start']);
  }

  /** Stops the server: `fast` ends every session first (as a restart does), `immediate` as a crash. */
  stopServer(mode: 'fast' | 'immediate' = 'fast'): void {
    this.run('pg_ctl', ['-D', this.data, '-m', mode, '-w', 'stop']);
  }

  /**
   * Stops the server (fast: every session ended, as `pg_ctlcluster restart` does), leaves it down
   * for `downMs`, and starts it again; without blocking this process, so load can go on meanwhile.
   */
  async restart(downMs = 1000): Promise<void> {
    await this.runAsync('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', 'stop']);
    await new Promise((r) => setTimeout(r, downMs));
    await this.runAsync('pg_ctl', [
      '-D',
      this.data,
      '-o',
      this.serverOptions,
      '-l',
      path.join(this.dir, 'log'),
      '-w',
      'start',
    ]);
  }

  private async runAsync(tool: string, args: string[]): Promise<void> {
    const exe = path.join(this.bin, tool);
    const [cmd, argv] = this.owner ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
    await promisify(execFile)(cmd, argv, { timeout: 60_000 });
  }

  private get serverOptions(): string {
    return `-p ${this.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${this.dir} -c fsync=off`;
  }

  async destroy(): Promise<void> {
    try {
      this.stopServer('immediate');
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A database of the test's own on the shared cluster: its connections can be terminated (as a
 * failover or a proxy restart does) without touching the other tests' database.
 */
export class OwnDatabase {
  private constructor(readonly name: string) {}

  static async create(): Promise<OwnDatabase> {
    const db = new OwnDatabase(`pgf_${randomBytes(5).toString('hex')}`);
    await db.admin(`CREATE DATABASE ${db.name}`);
    return db;
  }

  get url(): string {
    const url = new URL(DATABASE_URL);
    url.pathname = `/${this.name}`;
    return url.toString();
  }

  /** Terminates the client connections to this database whose application_name matches `like`. */
  async terminate(like = '%'): Promise<number> {
    const { rows } = await this.admin(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND application_name LIKE $2`,
      [this.name, like],
    );
    return rows.length;
  }

  async drop(): Promise<void> {
    await this.admin(`DROP DATABASE IF EXISTS ${this.name} WITH (FORCE)`);
  }

  private async admin(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      return await client.query(sql, params);
    } finally {
      await client.end();
    }
  }
}
