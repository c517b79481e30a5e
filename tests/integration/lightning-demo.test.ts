/**
 * The demo lightning network as `npm run serve` runs it: with the seeded demo network the demo
 * login and a seeded user start with 100,000 sats, the demo login zaps a seeded user's note
 * through its lightning address from @getalby/sdk's NWCClient, and after a restart on the same
 * data directory the stored connection is served again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NWCClient } from '@getalby/sdk';
import { finalizeEvent } from 'nostr-tools/pure';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { DEMO_LOGIN } from '../../server/demo/accounts.ts';
import { CacheClient } from './cache-client.ts';
import { nwcConnect } from './lightning-support.ts';
import { http, jsonOf } from './services-support.ts';

describe('demo lightning network on the seeded demo network', () => {
  let dir = '';
  let server: RunningServer | undefined;
  const start = async () => {
    const config = readConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: join(dir, 'data'), DIST_DIR: join(dir, 'dist'), DEMO: '1', DEMO_SCALE: '0.03' });
    server = await startServer(config);
    return server;
  };

  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lets the demo login zap a seeded user and keeps serving its connection after a restart', { timeout: 180_000 }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'strucc-ln-'));
    let s = await start();
    expect(jsonOf<{ demoLightning: boolean }>(await http('GET', `${s.url}/api/info`)).demoLightning).toBe(true);
    // A seeded user with a lightning address on our domain, and one of their notes.
    const row = await s.ctx.db.get<{ pubkey: string; content: string }>(
      `SELECT e.pubkey, e.content FROM replaceable r JOIN events e ON e.id = r.event_id
       WHERE r.kind = 0 AND e.pubkey <> ? AND e.content LIKE '%@strucc.test%' ORDER BY e.pubkey LIMIT 1`,
      [DEMO_LOGIN.pubkey],
    );
    const receiver = row!.pubkey;
    const lud16 = String((JSON.parse(row!.content) as { lud16: string }).lud16);
    const target = await s.ctx.db.get<{ id: string }>('SELECT id FROM events WHERE pubkey = ? AND kind = 1 LIMIT 1', [receiver]);

    const walletSocket = await CacheClient.connect(`${s.url.replace('http', 'ws')}/wallet`);
    const uri = await nwcConnect(walletSocket, DEMO_LOGIN.secretKey, Math.floor(Date.now() / 1000), { appname: 'Demó' });
    await walletSocket.close();
    let client = new NWCClient({ nostrWalletConnectUrl: uri });
    expect(await client.getBalance()).toEqual({ balance: 100_000_000 });

    const [name] = lud16.split('@');
    const meta = jsonOf<{ callback: string }>(await http('GET', `${s.url}/.well-known/lnurlp/${name}`));
    const request = finalizeEvent(
      { kind: 9734, created_at: Math.floor(Date.now() / 1000), content: '', tags: [['p', receiver], ['e', target!.id], ['amount', '42000'], ['relays', `${s.url.replace('http', 'ws')}/relay`]] },
      DEMO_LOGIN.secretKey,
    );
    const answer = jsonOf<{ pr: string }>(await http('GET', `${meta.callback}?amount=42000&nostr=${encodeURIComponent(JSON.stringify(request))}`));
    await client.payInvoice({ invoice: answer.pr });
    expect(await client.getBalance()).toEqual({ balance: (100_000 - 42) * 1000 });
    const zap = await s.ctx.db.get('SELECT sender, receiver, amount_sats FROM zaps WHERE target_event_id = ? AND sender = ?', [target!.id, DEMO_LOGIN.pubkey]);
    expect(zap).toEqual({ sender: DEMO_LOGIN.pubkey, receiver, amount_sats: 42 });
    // The seeded receiver is a demo account too: 100,000 plus the zap.
    expect(await s.ctx.db.get('SELECT balance_sats FROM ln_accounts WHERE pubkey = ?', [receiver])).toEqual({ balance_sats: 100_042 });
    client.close();

    // Restart on the same data: the stored connection is served again without a new nwc_connect.
    await s.close();
    server = undefined;
    s = await start();
    client = new NWCClient({ nostrWalletConnectUrl: uri.replace(/relay=[^&]+/, `relay=${encodeURIComponent(`${s.url.replace('http', 'ws')}/relay`)}`) });
    expect(await client.getBalance()).toEqual({ balance: (100_000 - 42) * 1000 });
    client.close();
  });
});
