import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../../server/config.ts';
import { vapidKeys } from '../../../../server/push/keys.ts';
import { openSqlite } from '../../../../server/store/sqlite.ts';
import { dmMessage, harmony } from '../../../../server/push/messages.ts';

describe('VAPID configuration', () => {
  it('takes both keys from the environment, with the subject, and stores none', async () => {
    const pair = webpush.generateVAPIDKeys();
    const config = readConfig({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey, VAPID_SUBJECT: 'https://strucc.example/kapcsolat' });
    const db = openSqlite(':memory:');
    expect(await vapidKeys(config, db)).toEqual({ ...pair, subject: 'https://strucc.example/kapcsolat' });
    expect(await db.get("SELECT value FROM meta WHERE key = 'vapid_keys'")).toBeUndefined();
    await db.close();
  });

  it('stops on half a pair, a malformed key or a subject that is neither mailto: nor https:', () => {
    const pair = webpush.generateVAPIDKeys();
    expect(() => readConfig({ VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(/VAPID_PUBLIC_KEY és VAPID_PRIVATE_KEY együtt kell/);
    expect(() => readConfig({ VAPID_PUBLIC_KEY: 'rövid', VAPID_PRIVATE_KEY: pair.privateKey })).toThrow(/együtt kell/);
    expect(() => readConfig({ VAPID_SUBJECT: 'push@strucc.example' })).toThrow(/VAPID_SUBJECT érvénytelen/);
  });

  it('without keys, makes a pair once and keeps it in the store across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strucc-vapid-'));
    const config = readConfig({ DATA_DIR: dir, NIP05_DOMAIN: 'pelda.hu' });
    try {
      let db = openSqlite(join(dir, 'strucc.sqlite'));
      const first = await vapidKeys(config, db);
      expect(first.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
      expect(first.subject).toBe('mailto:push@pelda.hu');
      // A second process (or a second call) finds the stored pair instead of storing its own.
      expect(await vapidKeys(config, db)).toEqual(first);
      await db.close();
      db = openSqlite(join(dir, 'strucc.sqlite'));
      expect(await vapidKeys(config, db)).toEqual(first);
      await db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('push texts', () => {
  it('picks -tól or -től by vowel harmony', () => {
    expect(['bob', 'Anna', 'Kati', 'Ádám', 'Zsófi'].map(harmony)).toEqual(['back', 'back', 'back', 'back', 'back']);
    expect(['Bence', 'Péter', 'Ödön', 'Kis Évi', 'Jim', '⚡'].map(harmony)).toEqual(['front', 'front', 'front', 'front', 'front', 'front']);
    expect(dmMessage('a'.repeat(64), 'Anna').title).toBe('Új üzenet Anna-tól');
    expect(dmMessage('a'.repeat(64), 'Bence').title).toBe('Új üzenet Bence-től');
  });
});
