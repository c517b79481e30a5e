import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchEvents, BENCH_NOW } from './server-data.ts';
import { createImporter } from '../server/ingest/importer.ts';
import { INDEXERS } from '../server/ingest/indexers.ts';
import { openSqlite } from '../server/store/sqlite.ts';
const events = await benchEvents();
const BATCH = Number(process.env.BATCH ?? 1000);
const only = process.env.ONLY;
if (only === 'core') INDEXERS.splice(0);
const timing = new Map<string, number>();
for (const ix of INDEXERS) {
  const orig = ix.onEvent.bind(ix);
  ix.onEvent = async (tx, e, now) => { const t = performance.now(); await orig(tx, e, now); timing.set(ix.name, (timing.get(ix.name) ?? 0) + performance.now() - t); };
}
const dir = mkdtempSync(join(tmpdir(), 'prof-'));
const db = openSqlite(join(dir, 's.sqlite'));
const q = { calls: 0 };
if (process.env.NOCKPT) await db.all('PRAGMA wal_autocheckpoint = 0');
const importer = createImporter({ db, live: new EventEmitter(), now: () => BENCH_NOW, verifier: { threads: 0, async verify(ev) { return ev.map(() => 0 as const); }, async close() {} } });
const t0 = performance.now(); const c0 = process.cpuUsage();
for (let i = 0; i < events.length; i += BATCH) await importer.importEvents(events.slice(i, i + BATCH));
const ms = performance.now() - t0;
const cu = process.cpuUsage(c0); console.log('cpu ms', ((cu.user + cu.system)/1000).toFixed(0), 'sys', (cu.system/1000).toFixed(0));
console.log('total ms', ms.toFixed(0), 'ev/s', (events.length * 1000 / ms).toFixed(0));
console.log('commit ms', (globalThis as any).__commit, (globalThis as any).__n);
console.log([...timing].map(([k, v]) => `${k}: ${v.toFixed(0)} ms`).join('\n'));
const byKind = await db.all('SELECT kind, COUNT(*) n FROM events GROUP BY kind ORDER BY n DESC');
console.log(JSON.stringify(byKind));
const { statSync } = await import('node:fs'); try { console.log('wal MB', statSync(join(dir, 's.sqlite-wal')).size / 1e6, 'db MB', statSync(join(dir, 's.sqlite')).size / 1e6); } catch {}
await db.close(); rmSync(dir, { recursive: true });
