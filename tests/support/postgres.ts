import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface TempPostgres {
  url: string;
  stop(): void;
}

function pgBinDir(): string {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  return join(root, version, 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Extra server settings (a benchmark's shared_preload_libraries, say) as postgres -c options. */
function settingsArgs(settings: Record<string, string> = {}): string {
  return Object.entries(settings).map(([k, v]) => ` -c ${k}=${v}`).join('');
}

/**
 * A throwaway PostgreSQL cluster in a temp dir on a free loopback port: a real server,
 * not the machine's shared one, so tests neither depend on nor disturb it.
 * PostgreSQL refuses to run as root, so as root the cluster belongs to the postgres user.
 * Tests run without fsync (nothing to keep); a benchmark asks for it, as a deployment would have it.
 */
export async function startTempPostgres(opts: { fsync?: boolean; settings?: Record<string, string> } = {}): Promise<TempPostgres> {
  const bin = pgBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'strucc-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const res = asRoot
      ? spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', [cmd, ...args].map((a) => `'${a}'`).join(' ')], { encoding: 'utf8' })
      : spawnSync(cmd, args, { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`${cmd} failed: ${res.stderr || res.stdout}`);
  };
  if (asRoot) {
    const pw = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(dir, Number(pw), Number(gid));
    chmodSync(dir, 0o700);
  }
  const data = join(dir, 'data');
  run(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'strucc', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  run(join(bin, 'pg_ctl'), [
    '-D', data, '-w', '-l', join(dir, 'log'),
    '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=${opts.fsync ? 'on' : 'off'}${settingsArgs(opts.settings)}`,
    'start',
  ]);
  const stopCmd = [join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop'].map((a) => `'${a}'`).join(' ');
  // A test process killed with SIGKILL never calls stop(): this watchdog stops the cluster once its parent is gone.
  const watchdog = spawn(
    'sh',
    ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 2; done; ${asRoot ? `su postgres -s /bin/sh -c "${stopCmd}"` : stopCmd}; rm -rf '${dir}'`],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  return {
    url: `postgres://strucc@127.0.0.1:${port}/postgres`,
    stop() {
      watchdog.kill();
      try {
        run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A new empty database named `name` on the cluster at `serverUrl`; its connection string. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
