/**
 * The server's VAPID identity. Browsers bind a subscription to the public key it was made with, so
 * the pair must outlive restarts and be the same in every process of one deployment: from the
 * environment when given, otherwise made once and kept in the store's meta table (the SQLite file
 * in DATA_DIR, or the PostgreSQL every process shares). The first process to store a pair wins.
 */
import webpush from 'web-push';
import type { ServerConfig } from '../context.ts';
import type { Queryable } from '../store/db.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const META_KEY = 'vapid_keys';

async function keptPair(db: Queryable): Promise<{ publicKey: string; privateKey: string }> {
  const fresh = webpush.generateVAPIDKeys();
  await db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [META_KEY, JSON.stringify(fresh)]);
  const row = await db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [META_KEY]);
  const kept = JSON.parse(row?.value ?? '{}') as { publicKey?: unknown; privateKey?: unknown };
  if (typeof kept.publicKey !== 'string' || typeof kept.privateKey !== 'string') throw new Error('A tárolt VAPID kulcspár hibás (meta.vapid_keys)');
  return { publicKey: kept.publicKey, privateKey: kept.privateKey };
}

export async function vapidKeys(config: ServerConfig, db: Queryable): Promise<VapidKeys> {
  const given = config.vapid;
  const pair = given?.publicKey ? given : await keptPair(db);
  // Push services contact the sender here when its pushes misbehave.
  const subject = given?.subject || `mailto:push@${config.nip05Domain}`;
  return { publicKey: pair.publicKey, privateKey: pair.privateKey, subject };
}
