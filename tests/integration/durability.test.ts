/**
 * No acknowledged write is lost: a real server process (DEMO=0) is killed with SIGKILL right after
 * writes it acknowledged, then started again on the same data dir (and the same PostgreSQL), and
 * every one of them is there. The first case acknowledges settings and a membership quote while
 * the relay is busy importing a burst, which is when a write used to run inside the import's open
 * transaction on the one SQLite connection and die with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finalizeEvent, type EventTemplate } from 'nostr-tools/pure';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempPostgres, type TempPostgres } from '../support/postgres.ts';
import { startServerProcess, type RunningServer } from '../support/server-process.ts';
import { CacheClient, content, ofKind } from './cache-client.ts';
import { person, type Person } from './people.ts';
import { http } from './services-support.ts';
import { until } from '../support/until.ts';

const REPLY = 10000300;
const BURST = 3000;

const nowSec = () => Math.floor(Date.now() / 1000);
/** A signed request for one command (its op in the d tag, as the server requires). */
const appData = (who: Person, op: string, body: unknown, tmpl: Partial<EventTemplate> = {}) =>
  finalizeEvent({ kind: 30078, created_at: nowSec(), tags: [['d', 'Primal-Web App', op]], content: JSON.stringify(body), ...tmpl }, who.sk);

/** One relay socket that publishes frames and collects the OK of each event id. */
async function relaySocket(base: string) {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/relay`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const oks = new Map<string, [boolean, string]>();
  ws.on('message', (d) => {
    const f = JSON.parse(d.toString()) as unknown[];
    if (f[0] === 'OK') oks.set(String(f[1]), [f[2] === true, String(f[3])]);
  });
  return {
    oks,
    publish(events: { id: string }[]) {
      for (const e of events) ws.send(JSON.stringify(['EVENT', e]));
    },
    ok: (id: string) => until(() => oks.get(id), `an OK for ${id}`, 60_000, 10),
    close: () => ws.terminate(),
  };
}

describe.each(['sqlite', 'postgres'] as const)('acknowledged writes survive SIGKILL (%s)', (store) => {
  let pg: TempPostgres | null = null;
  let dataDir: string;
  let server: RunningServer | null = null;
  let n = 0;
  const sub = () => `d${++n}`;
  const writer = person();
  const burst = Array.from({ length: BURST }, (_, i) =>
    finalizeEvent({ kind: 1, created_at: nowSec() - BURST + i, tags: [], content: `Tömeges jegyzet ${i}` }, writer.sk),
  );

  const start = async () => {
    server = await startServerProcess({ DEMO: '0', DEMO_PAYMENTS: '1', FETCH_PRIVATE_ADDRESSES: '1', DATABASE_URL: pg?.url ?? '' }, dataDir);
    return server;
  };
  const ws = (path: string) => CacheClient.connect(`${server!.url.replace('http', 'ws')}${path}`);
  const theme = async (c: CacheClient, who: Person) => {
    const r = await c.req(sub(), 'get_app_settings', { event_from_user: appData(who, 'get_app_settings', {}) });
    return content(r.events[0]).theme;
  };
  const pay = (id: string) =>
    http('POST', `${server!.url}/api/demo/pay-quote`, { body: JSON.stringify({ membership_quote_id: id }), headers: { 'Content-Type': 'application/json' } });
  const buy = async (wallet: CacheClient, who: Person, name: string) => {
    const r = await wallet.req(sub(), 'membership_purchase_product', {
      event_from_user: appData(who, 'membership_purchase_product', { name, product_id: '3-months-premium', receiver_pubkey: who.pk }),
    });
    expect(r.notices).toEqual([]);
    return String(content(ofKind(r.events, REPLY)[0]).membership_quote_id);
  };

  beforeAll(async () => {
    pg = store === 'postgres' ? await startTempPostgres() : null;
    dataDir = mkdtempSync(join(tmpdir(), 'strucc-durable-'));
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    pg?.stop();
  });

  it('settings and a quote acknowledged during a relay import burst', async () => {
    await start();
    const relay = await relaySocket(server!.url);
    const v1 = await ws('/v1');
    const wallet = await ws('/wallet');
    const people = Array.from({ length: 4 }, () => person());
    relay.publish(burst);
    // Wait until the relay is importing, so the writes below arrive while its transactions run.
    await relay.ok(burst[0].id);
    const quotes: string[] = [];
    for (const [i, p] of people.entries()) {
      const save = await v1.req(sub(), 'set_app_settings', { settings_event: appData(p, 'set_app_settings', { theme: `midnight` }) });
      expect(save.notices).toEqual([]);
      quotes.push(await buy(wallet, p, `tartos${i}x`));
    }
    await server!.kill();
    relay.close();

    await start();
    const again = await ws('/v1');
    for (const p of people) expect(await theme(again, p)).toBe('midnight');
    for (const id of quotes) expect((await pay(id)).status).toBe(200);
    await again.close();
    await server!.stop();
  }, 180_000);

  it('settings, a relay EVENT, a paid membership and import_events, each killed right after its reply', async () => {
    const u = person();
    const note = finalizeEvent({ kind: 1, created_at: nowSec(), tags: [], content: 'Megmaradok' }, u.sk);
    const imported = finalizeEvent({ kind: 1, created_at: nowSec(), tags: [], content: 'Importálva' }, u.sk);

    await start();
    let v1 = await ws('/v1');
    expect((await v1.req(sub(), 'set_app_settings', { settings_event: appData(u, 'set_app_settings', { theme: 'ice' }) })).notices).toEqual([]);
    await server!.kill();

    await start();
    const relay = await relaySocket(server!.url);
    relay.publish([note]);
    expect(await relay.ok(note.id)).toEqual([true, '']);
    await server!.kill();
    relay.close();

    await start();
    const wallet = await ws('/wallet');
    const quoteId = await buy(wallet, u, 'megmarad');
    expect((await pay(quoteId)).status).toBe(200);
    await server!.kill();

    await start();
    v1 = await ws('/v1');
    const imp = await v1.req(sub(), 'import_events', { events: [imported] });
    expect(imp.notices).toEqual([]);
    await server!.kill();

    await start();
    v1 = await ws('/v1');
    expect(await theme(v1, u)).toBe('ice');
    const got = await v1.req(sub(), 'events', { event_ids: [note.id, imported.id] });
    expect(ofKind(got.events, 1).map((e) => e.id).sort()).toEqual([note.id, imported.id].sort());
    const status = await v1.req(sub(), 'membership_status', { event_from_user: appData(u, 'get_membership_status', {}) });
    expect(content(ofKind(status.events, REPLY)[0])).toMatchObject({ tier: 'premium', name: 'megmarad' });
    await v1.close();
    await server!.stop();
  }, 180_000);
});
