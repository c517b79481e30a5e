import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Lines kept for listeners added later (the start-up banner and what follows it, not a whole run's log). */
const BACKLOG_LINES = 2000;

export interface RunningServer {
  url: string;
  /** The server's process id (a benchmark reads its CPU time from /proc). */
  pid: number;
  dataDir: string;
  /** Called with every line the server prints: first the ones already printed (up to BACKLOG_LINES), then each new one. */
  onLine(listener: (line: string) => void): void;
  stop(): Promise<void>;
  /** SIGKILL, as a crash or power cut would end it: no shutdown code runs. Keeps the data dir. */
  kill(): Promise<void>;
}

/**
 * Starts `server/main.ts` as a real child process on a free port and resolves once it
 * prints its URL (which it does only after seeding the demo network).
 */
export async function startServerProcess(env: Record<string, string> = {}, keepDataDir?: string, cwd?: string): Promise<RunningServer> {
  const dataDir = keepDataDir ?? mkdtempSync(join(tmpdir(), 'strucc-'));
  // `cwd`: another checkout's server (a benchmark's baseline), started the same way.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Lines are split from the first byte: the URL line and the next ones can come in one chunk, and a
  // listener added once the URL is known must still see those.
  const listeners: ((line: string) => void)[] = [];
  const backlog: string[] = [];
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (backlog.length < BACKLOG_LINES) backlog.push(line);
      for (const l of listeners) l(line);
    }
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A server that never came up is not left running behind the caller's back.
      child.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${output}`));
    }, Number(process.env.SERVER_START_TIMEOUT_MS ?? 180_000));
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    dataDir,
    onLine(listener) {
      for (const line of backlog) listener(line);
      listeners.push(listener);
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      if (!keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
