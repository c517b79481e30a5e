import { EventEmitter } from 'node:events';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { readConfig } from '../config.ts';
import type { ServerContext } from '../context.ts';
import { createImporter } from '../ingest/importer.ts';
import { openSqlite } from '../store/sqlite.ts';
import { seedDemoIfEmpty } from './seed.ts';

/**
 * `npm run demo:reset`: throws the local database away and seeds a fresh demo network
 * into it, without starting the server. Honours DATA_DIR, DEMO_SCALE and the domains.
 */
async function main(): Promise<void> {
  const config = { ...readConfig(process.env), demo: true, verbose: true };
  const file = join(config.dataDir, 'strucc.sqlite');
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  console.log(`Adatbázis törölve: ${file}`);

  const db = openSqlite(file);
  const live = new EventEmitter();
  const now = () => Math.floor(Date.now() / 1000);
  const ctx: ServerContext = {
    config,
    db,
    live,
    now,
    importer: createImporter({ db, live, now }),
    stats: { cacheConnections: 0, cacheConnectionsTotal: 0, relayConnections: 0, relayConnectionsTotal: 0, asyncSubscriptions: {} },
  };
  try {
    await seedDemoIfEmpty(ctx);
  } finally {
    await db.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error('A demó hálózat visszaállítása nem sikerült:', err);
    process.exit(1);
  },
);
