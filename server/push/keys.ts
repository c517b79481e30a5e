/**
 * The server's VAPID identity. Browsers bind a subscription to the public key it was made with, so
 * the pair must outlive restarts: from the environment when given, otherwise made once and kept in
 * DATA_DIR/vapid.json (owner-only, like any private key).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import webpush from 'web-push';
import type { ServerConfig } from '../context.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

function keptPair(dataDir: string): { publicKey: string; privateKey: string } {
  const file = join(dataDir, 'vapid.json');
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof kept.publicKey === 'string' && typeof kept.privateKey === 'string') return { publicKey: kept.publicKey, privateKey: kept.privateKey };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${file} nem olvasható: ${(err as Error).message}`);
  }
  const pair = webpush.generateVAPIDKeys();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(pair), { mode: 0o600, flag: 'wx' });
  return pair;
}

export function vapidKeys(config: ServerConfig): VapidKeys {
  const given = config.vapid;
  const pair = given?.publicKey ? given : keptPair(config.dataDir);
  // Push services contact the sender here when its pushes misbehave.
  const subject = given?.subject || `mailto:push@${config.nip05Domain}`;
  return { publicKey: pair.publicKey, privateKey: pair.privateKey, subject };
}
