/**
 * Replays the request sequences a real web client was observed to send (cache-protocol.md
 * Part C §C.4) against our server seeded with the demo network, and checks that every request
 * is understood and answered with data — the same way, over the same zlib connection.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nip19 } from 'nostr-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { finalizeEvent } from 'nostr-tools/pure';
import { DEMO_LOGIN, DEMO_LOGIN_PUBKEY, HOUSE_PUBKEY } from '../../server/demo/accounts.ts';
import { CacheClient, content, ofKind, type Reply } from './cache-client.ts';

let server: RunningServer;
let dataDir: string;
let client: CacheClient;
let sub = 0;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'strucc-c4-'));
  server = await startServer(readConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, DEMO: '1', DEMO_SCALE: '0.05' }));
  client = await CacheClient.connect(`ws://127.0.0.1:${server.port}/v1`);
  const handshake = await client.enableZlib();
  expect(handshake.events).toEqual([]);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** One request of a sequence: its reply must carry objects (unless `mayBeEmpty`) and never a NOTICE. */
async function expectData(command: string, kwargs?: Record<string, unknown>, mayBeEmpty = false): Promise<Reply> {
  const reply = await client.req(`c4_${++sub}`, command, kwargs);
  expect(reply.notices, `${command} answered with a NOTICE`).toEqual([]);
  if (!mayBeEmpty) expect(reply.events.length, `${command} answered with no data`).toBeGreaterThan(0);
  return reply;
}

/** A long-lived command: the REQ is answered with EOSE alone, then pushes arrive until CLOSE. */
async function expectPushes(command: string, kwargs: Record<string, unknown>): Promise<Record<string, unknown>> {
  const subid = `c4_${++sub}`;
  const reply = await client.req(subid, command, kwargs);
  expect(reply.notices, `${command} answered with a NOTICE`).toEqual([]);
  const start = client.frames.length;
  await client.until(() => client.frames.slice(start).some((f) => f.msg[0] === 'EVENT' && f.msg[1] === subid), `a ${command} push`, 5000);
  const pushed = client.frames.slice(start).find((f) => f.msg[0] === 'EVENT' && f.msg[1] === subid)!;
  expect(pushed.binary, 'pushes stay plain text').toBe(false);
  client.send(JSON.stringify(['CLOSE', subid]));
  return pushed.msg[2] as Record<string, unknown>;
}

const me = DEMO_LOGIN_PUBKEY;

/**
 * The user's own counts and seen mark are private since issue 12: our client asks for them with a
 * fresh signed request (protocol C.1 pattern, op = the command) of the signed-in key.
 */
const ownRequest = (op: string) =>
  finalizeEvent({ kind: 30078, tags: [['d', 'Primal-Web App', op]], content: JSON.stringify({ description: op }), created_at: Math.floor(Date.now() / 1000) }, DEMO_LOGIN.secretKey);

describe('Part C §C.4 request sequences', () => {
  it('logged out, /home', async () => {
    client.send(JSON.stringify(['CLOSE', 'notif_stats_x']));
    await expectData('get_app_releases');
    const defaults = await expectData('get_default_app_settings', { client: 'Primal-Web App' });
    expect(ofKind(defaults.events, 10000103)).toHaveLength(1);
    const home = await expectData('get_home_feeds');
    const reads = await expectData('get_reads_feeds');
    await expectData('get_recommended_blossom_servers');
    await expectData('user_infos', { pubkeys: [HOUSE_PUBKEY, me] });
    await expectData('scored', { user_pubkey: HOUSE_PUBKEY, selector: 'trending_4h' });
    const homeSpec = content<{ spec: string }[]>(ofKind(home.events, 10000153)[0])[0].spec;
    const readsSpec = content<{ spec: string }[]>(ofKind(reads.events, 10000152)[0])[0].spec;
    const notes = await expectData('mega_feed_directive', { spec: homeSpec, limit: 20, user_pubkey: HOUSE_PUBKEY });
    expect(notes.events.some((e) => e.kind === 1 || e.kind === 6)).toBe(true);
    const articles = await expectData('mega_feed_directive', { spec: readsSpec, limit: 20, user_pubkey: HOUSE_PUBKEY });
    expect(articles.events.some((e) => e.kind === 30023)).toBe(true);
  });

  it('read-only npub login, /home', async () => {
    // Without a key nothing private is answered: the observed unsigned forms now get a NOTICE.
    for (const command of ['notification_counts', 'get_notifications_seen', 'directmsg_count']) {
      const reply = await client.req(`c4_${++sub}`, command, { pubkey: me });
      expect(reply.notices, command).toHaveLength(1);
    }
    await expectData('get_user_relays', { pubkey: me });
    await expectData('user_infos', { pubkeys: [me] });
    await expectData('get_bookmarks', { pubkey: me }, true);
    await expectData('get_default_relays');
    await expectData('contact_list', { pubkey: me, extended_response: true });
    await expectData('mutelist', { pubkey: me, extended_response: true }, true);
    await expectData('replaceable_event', { pubkey: me, kind: 10555 }, true);
    await expectData('mutelists', { pubkey: me, extended_response: true }, true);
    await expectData('allowlist', { pubkey: me, extended_response: true }, true);
    await expectData('live_events_from_follows', { user_pubkey: me }, true);
  });

  it('nsec login, /home: the private counts in their signed form', async () => {
    const counts = await expectPushes('notification_counts', { pubkey: me, event_from_user: ownRequest('notification_counts') });
    expect(counts).toMatchObject({ kind: 10000112, pubkey: me });
    await expectData('get_notifications_seen', { pubkey: me, event_from_user: ownRequest('get_notifications_seen') });
    const dms = await expectPushes('directmsg_count', { pubkey: me, event_from_user: ownRequest('directmsg_count') });
    expect(dms.kind).toBe(10000117);
  });

  it('/reads', async () => {
    const picks = await expectData('get_recommended_reads');
    await expectData('get_reads_topics');
    await expectData('get_featured_authors');
    const naddrs = content<{ reads: [string, string][] }>(ofKind(picks.events, 10000145)[0]).reads.map(([naddr]) => naddr);
    const events = naddrs.map((a) => nip19.decode(a)).filter((d) => d.type === 'naddr').map((d) => d.data);
    const articles = await expectData('parametrized_replaceable_events', { events, extended_response: true });
    expect(articles.events.some((e) => e.kind === 30023)).toBe(true);
  });

  it('/explore', async () => {
    const stats = await expectPushes('net_stats', {});
    expect(stats.kind).toBe(10000101);
    await expectData('get_featured_dvm_feeds', {}, true);
    await expectData('explore_topics');
    await expectData('scored_users_24h', { user_pubkey: me });
  });

  it('/profile/npub…', async () => {
    const profile = await expectData('user_profile', { pubkey: me, user_pubkey: HOUSE_PUBKEY });
    expect(ofKind(profile.events, 10000105)).toHaveLength(1);
    await expectData('user_profile_scored_content', { pubkey: me, limit: 8, user_pubkey: HOUSE_PUBKEY });
    await expectData('mega_feed_directive', { spec: JSON.stringify({ id: 'feed', kind: 'reads', pubkey: me }), limit: 2 }, true);
    const notes = await expectData('mega_feed_directive', { spec: JSON.stringify({ id: 'feed', kind: 'notes', pubkey: me }), limit: 20 });
    expect(notes.events.some((e) => e.pubkey === me)).toBe(true);
  });

  it('/search/q, /legends, /dms, /notifications, /bookmarks', async () => {
    const found = await expectData('mega_feed_directive', { spec: JSON.stringify({ id: 'advsearch', query: 'Balaton' }), limit: 20 });
    expect(found.events.some((e) => e.kind === 1 && String(e.content).includes('Balaton'))).toBe(true);
    await expectData('membership_legends_leaderboard', { order_by: 'last_donation', limit: 20 });
    await expectData('get_directmsg_contacts', { user_pubkey: me, relation: 'any', limit: 20, event_from_user: ownRequest('get_directmsg_contacts') });
    const notifications = await expectData('get_notifications', { pubkey: me, limit: 100, type_group: 'all', user_pubkey: me });
    expect(ofKind(notifications.events, 10000110).length).toBeGreaterThan(0);
    const bookmarkOwner = HOUSE_PUBKEY;
    await expectData(
      'mega_feed_directive',
      { spec: JSON.stringify({ id: 'feed', kind: 'notes', kinds: [1], notes: 'bookmarks', pubkey: bookmarkOwner }), limit: 20 },
      true,
    );
  });
});
