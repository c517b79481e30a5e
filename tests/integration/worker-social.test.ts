/**
 * The worker's notification, DM, profile and thread services in Node against the real Strucc
 * server seeded with the demo network, with a real signer (nsec login through the account
 * service): the notification count arrives and resets, a DM sent by one demo user decrypts in
 * the other's conversation, a profile and a thread load with real data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nsecEncode } from 'nostr-tools/nip19';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { DEMO_LOGIN_NSEC, DEMO_LOGIN_PUBKEY, demoUser } from '../../server/demo/accounts.ts';
import { createApi, type StruccWorker } from '../../worker/api.ts';
import type { WebSocketFactory, WebSocketLike } from '../../worker/relays.ts';
import { MemoryStorage } from '../../worker/storage.ts';
import type { DmSnapshot, NotificationCountSnapshot, NotificationsSnapshot, ProfileSnapshot, RelayInfo, ThreadSnapshot } from '../../core/types.ts';
import { until } from '../support/until.ts';

const wsFactory: WebSocketFactory = (url) => new WebSocket(url) as unknown as WebSocketLike;

describe('social services against the real server and its demo network', () => {
  let dir: string;
  let server: RunningServer;
  let api: StruccWorker;
  const savedWebSocket = globalThis.WebSocket;
  const TAB = 'tab1';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'strucc-social-'));
    server = await startServer(
      readConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dir, DEMO: '1', DEMO_SCALE: '0.05', DIST_DIR: join(dir, 'no-dist') }),
    );
    // The cache socket actor uses the global WebSocket, which Node 20 lacks.
    (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
    api = createApi({ relaySocketFactory: wsFactory, publishTimeoutMs: 4000, accountStorage: new MemoryStorage(), feedThrottleMs: 0 });
    await api.hello(TAB, { cacheServer: `ws://127.0.0.1:${server.port}/v1`, mediaServer: server.url, noBinary: false, devMode: false });
    expect(await api.login!({ method: 'nsec', nsec: DEMO_LOGIN_NSEC })).toEqual({ ok: true });
  });

  afterAll(async () => {
    api?.dispose();
    (globalThis as { WebSocket?: unknown }).WebSocket = savedWebSocket;
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the notification count arrives for the signed-in user and resets', async () => {
    let count: NotificationCountSnapshot | undefined;
    const handle = await api.watchNotificationCount!(TAB, (s) => (count = s));
    const first = await until(() => count?.subscribed && count.count > 0 && count, 'an unread count');
    expect(first.count).toBeGreaterThan(0);
    expect(await api.markNotificationsSeen!()).toEqual({ ok: true });
    expect(count?.count).toBe(0);
    const seen = await server.ctx.db.get<{ seen_until: number | string }>('SELECT seen_until FROM notifications_seen WHERE pubkey = ?', [DEMO_LOGIN_PUBKEY]);
    expect(Number(seen?.seen_until)).toBeGreaterThan(0);
    // The server's own pushes agree after the reset.
    let again: NotificationCountSnapshot | undefined;
    const second = await api.watchNotificationCount!(TAB, (s) => (again = s));
    expect(again).toEqual({ count: 0, subscribed: true });
    await api.unwatchNotificationCount!(second);
    await api.unwatchNotificationCount!(handle);
  });

  it('the notification list: 100 newest with their notes and users, then older pages', async () => {
    let list: NotificationsSnapshot | undefined;
    const handle = await api.openNotifications!(TAB, 'all', (s) => (list = s));
    const loaded = await until(() => list?.status === 'ready' && list, 'notifications');
    expect(loaded.notifications.length).toBeGreaterThan(0);
    const withPost = loaded.notifications.find((n) => n.post && loaded.notes[n.post]);
    expect(withPost?.post && loaded.notes[withPost.post]).toMatchObject({ event: { id: withPost?.post } });
    const withActor = loaded.notifications.find((n) => n.actor && loaded.users[n.actor]);
    expect(withActor?.actor && loaded.users[withActor.actor]).toMatchObject({ pubkey: withActor?.actor });
    const shown = loaded.notifications.length;
    const oldest = loaded.notifications.at(-1)!.created_at;
    await api.loadMoreNotifications!(handle);
    const more = await until(() => list?.status === 'ready' && list !== loaded && list, 'an older page');
    expect(more.notifications.length).toBeGreaterThanOrEqual(shown);
    expect(more.notifications.slice(shown).every((n) => n.created_at <= oldest)).toBe(true);
    await api.closeNotifications!(handle);
  });

  it('a DM sent by the demo login decrypts in the recipient conversation', async () => {
    let relays: RelayInfo[] = [];
    const relayUrl = `ws://127.0.0.1:${server.port}/relay`;
    await api.watchRelays!(TAB, (r) => (relays = r));
    expect(await api.addRelay!(relayUrl)).toEqual({ ok: true, url: relayUrl });
    await until(() => relays.some((r) => r.url === relayUrl && r.state === 'connected'), 'relay connected');

    // A NIP-04 round trip: a partner with no NIP-17 inbox list (kind 10050), so the cache server counts it.
    let peer = demoUser(2);
    for (let i = 2; i < 40; i++) {
      peer = demoUser(i);
      if (!(await server.ctx.db.get('SELECT 1 AS x FROM events WHERE kind = 10050 AND pubkey = ?', [peer.pubkey]))) break;
    }
    let dms: DmSnapshot | undefined;
    const handle = await api.openDms!(TAB, (s) => (dms = s));
    await until(() => dms?.contactsStatus === 'ready' && dms, 'contacts');
    expect(dms?.contacts.length).toBeGreaterThan(0);
    await api.selectDmContact!(handle, peer.pubkey);
    await until(() => dms?.selected === peer.pubkey && dms.conversationStatus === 'ready', 'conversation');
    const text = `Szia! ${Date.now()}`;
    expect(await until(() => dms?.protocol, 'the protocol of the conversation')).toBe('nip04');
    const result = await api.sendDm!(handle, text);
    expect(result.success).toBe(true);
    expect(result.event?.kind).toBe(4);
    await until(() => dms?.messages.some((m) => m.content === text && m.sender === DEMO_LOGIN_PUBKEY), 'the sent message in the conversation');
    await api.closeDms!(handle);

    // The recipient signs in and reads it.
    await api.logout!();
    expect(await api.login!({ method: 'nsec', nsec: nsecEncode(peer.secretKey) })).toEqual({ ok: true });
    let theirs: DmSnapshot | undefined;
    const other = await api.openDms!(TAB, (s) => (theirs = s));
    // A new account remembers 'follows'; the sender may be someone the recipient does not follow.
    await api.setDmRelation!(other, 'any');
    await until(() => theirs?.contactsStatus === 'ready' && theirs.contacts.some((c) => c.pubkey === DEMO_LOGIN_PUBKEY), 'the sender among contacts');
    await api.selectDmContact!(other, DEMO_LOGIN_PUBKEY);
    const convo = await until(() => theirs?.conversationStatus === 'ready' && theirs.messages.some((m) => m.content === text) && theirs, 'decrypted message');
    expect(convo.messages.find((m) => m.content === text)?.sender).toBe(DEMO_LOGIN_PUBKEY);
    // Selecting set the conversation's unread count to zero on the server.
    const unread = async () =>
      Number((await server.ctx.db.get<{ cnt: number | string }>('SELECT cnt FROM dm_threads WHERE owner = ? AND peer = ?', [peer.pubkey, DEMO_LOGIN_PUBKEY]))?.cnt ?? -1);
    await until(async () => (await unread()) === 0, 'the unread count reset on the server', 10_000, 50);
    expect(await unread()).toBe(0);
    await api.closeDms!(other);
    await api.logout!();
    expect(await api.login!({ method: 'nsec', nsec: DEMO_LOGIN_NSEC })).toEqual({ ok: true });
  });

  it('a profile loads with stats and its notes tab; a thread loads parents, the note and replies', async () => {
    let profile: ProfileSnapshot | undefined;
    const handle = await api.openProfile!(TAB, DEMO_LOGIN_PUBKEY, (s) => (profile = s));
    await api.loadProfileTab!(handle, 'replies');
    const p = await until(() => profile && !profile.loading.profile && !profile.loading.replies && profile.profile && profile, 'the profile');
    expect(p.stats?.note_count).toBeGreaterThan(0);
    expect(p.joinDate).toBeGreaterThan(0);
    expect(p.history[0].pubkey).toBe(DEMO_LOGIN_PUBKEY);
    expect(p.replies.length).toBeGreaterThan(0);
    const aReply = p.replies[0];
    await api.closeProfile!(handle);

    let thread: ThreadSnapshot | undefined;
    const t = await api.openThread!(TAB, { type: 'note', id: aReply.event.id }, (s) => (thread = s));
    const loaded = await until(() => (thread?.status === 'ready' || thread?.status === 'notFound') && thread, 'the thread');
    expect(loaded.status).toBe('ready');
    expect(loaded.note?.event.id).toBe(aReply.event.id);
    expect(loaded.parents.length).toBeGreaterThan(0);
    expect(loaded.parents.at(-1)?.event.id).toBe(aReply.replyTo?.id);
    await api.reloadThread!(t, { type: 'note', id: 'f'.repeat(64) });
    await until(() => thread?.status === 'notFound', 'a missing note');
    await api.closeThread!(t);
  });
});
