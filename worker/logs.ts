/**
 * The worker's recent log for the devtools page: socket state changes, relay state changes and
 * publish results. A ring of the last LOG_LIMIT entries; nothing is written anywhere else, so a
 * long-lived worker never grows.
 */
import type { LogEntry, LogLevel, LogLine, PublishResult, RelayInfo, SocketSnapshot } from '../core/types.ts';

export const LOG_LIMIT = 200;

export class WorkerLog {
  private entries: LogEntry[] = [];
  private readonly watchers = new Set<(entries: LogEntry[]) => void>();
  private scheduled = false;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly limit = LOG_LIMIT,
  ) {}

  add(level: LogLevel, source: string, message: string, line?: Pick<LogLine, 'key' | 'params'>): void {
    this.entries.push({ at: this.now(), level, source, message, ...(line ? { key: line.key, params: line.params } : {}) });
    if (this.entries.length > this.limit) this.entries = this.entries.slice(-this.limit);
    this.schedule();
  }

  list(): LogEntry[] {
    return [...this.entries];
  }

  /** cb gets the whole log now and after each burst of new entries. */
  watch(cb: (entries: LogEntry[]) => void): () => void {
    this.watchers.add(cb);
    cb(this.list());
    return () => this.watchers.delete(cb);
  }

  clearWatchers(): void {
    this.watchers.clear();
  }

  private schedule(): void {
    if (this.scheduled || this.watchers.size === 0) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      const list = this.list();
      for (const cb of [...this.watchers]) cb(list);
    });
  }
}

/** One line per socket change that a person debugging a connection cares about. */
export function socketLogLine(prev: SocketSnapshot | undefined, next: SocketSnapshot): LogLine | undefined {
  if (prev && prev.state === next.state && prev.url === next.url) return undefined;
  if (prev?.connected && !next.connected && next.state === 'waiting') {
    return { level: 'warn', message: `connection lost: ${next.url}`, key: 'socketLost', params: { url: next.url } };
  }
  return { level: 'info', message: `${next.state}${next.url ? ` ${next.url}` : ''}`, key: 'socketState', params: { state: next.state, url: next.url } };
}

export function cacheServerLogLine(url: string): LogLine {
  return { level: 'info', message: `cache server set to ${url}`, key: 'cacheServerSet', params: { url } };
}

/** Relay lines: added, removed, and each state change (failed ones with their error). */
export function relayLogLines(prev: RelayInfo[], next: RelayInfo[]): LogLine[] {
  const before = new Map(prev.map((r) => [r.url, r]));
  const out: LogLine[] = [];
  for (const r of next) {
    const old = before.get(r.url);
    before.delete(r.url);
    if (!old) out.push({ level: 'info', message: `added ${r.url} (${r.state})`, key: 'relayAdded', params: { url: r.url, state: r.state } });
    else if (old.state !== r.state) {
      const level: LogLevel = r.state === 'failed' ? 'error' : r.state === 'waiting' ? 'warn' : 'info';
      const error = r.error ?? '';
      out.push({
        level,
        message: `${r.url}: ${old.state} → ${r.state}${error ? ` (${error})` : ''}`,
        key: 'relayChanged',
        params: { url: r.url, from: old.state, to: r.state, error },
      });
    }
  }
  for (const url of before.keys()) out.push({ level: 'info', message: `removed ${url}`, key: 'relayRemoved', params: { url } });
  return out;
}

/** A publish result: kind, id and each relay's reason when it did not accept (relays' own words, untranslated). */
export function publishLogLine(kind: number | undefined, result: PublishResult): LogLine {
  const id = result.event?.id.slice(0, 12) ?? '';
  const reasons = Object.entries(result.reasons).map(([relay, why]) => (relay === '*' ? why : `${relay}: ${why}`)).join('; ');
  const head = `kind ${kind ?? '?'}${id ? ` ${id}` : ''}: ${result.outcome}`;
  return {
    level: result.success ? 'info' : 'error',
    message: reasons ? `${head} — ${reasons}` : head,
    key: 'publish',
    params: { kind: kind ?? '?', id, outcome: result.outcome, reasons },
  };
}
