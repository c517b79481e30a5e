/**
 * Issue 12, "signed requests cannot be replayed or stretched", over the real cache socket on both
 * stores. Every signed command is tried with a request signed for another op, the op of another
 * command, one six minutes old, one six minutes ahead, a parameter next to the signed content
 * instead of in it, and a stranger's key; each gets a NOTICE and leaves the store as it was, and
 * the valid request then works. Private reads (DM and notification counts, the seen mark) are
 * answered only to their owner's signed request.
 */
import type { VerifiedEvent } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { content, ofKind, type CacheClient } from './cache-client.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import { person, sign, type Person } from './people.ts';

type Obj = Record<string, unknown>;
const SIX_MINUTES = 360;

interface Case {
  command: string;
  /** The op our client signs for this command. */
  op: string;
  /** A valid op of some other command. */
  otherOp: string;
  field?: string;
  kind?: number;
  /** The signed content of the valid request. */
  content: (who: Person) => unknown;
  /** A parameter that must be signed: moved out of the content into the request, it must be refused. */
  param?: string;
  /** What the valid request changes, read straight from the store. */
  state: (who: Person) => Promise<unknown>;
}

describe.each(['sqlite', 'postgres'] as const)('signed requests (%s)', (store) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  const mallory = person();
  let sub = 0;
  const req = (command: string, kwargs: Obj) => c.req(`s${++sub}`, command, kwargs);
  const appRequest = (who: Person, op: string, body: unknown, at = srv.ctx.now(), kind = 30078): VerifiedEvent =>
    sign(who, kind, at, typeof body === 'string' ? body : JSON.stringify(body), [['d', 'Primal-Web App', op]]);
  const rows = (sql: string, params: unknown[]) => srv.ctx.db.all(sql, params as (string | number)[]);

  beforeAll(async () => {
    srv = await startCacheServer(store);
    c = await srv.connect();
    const { alice, bob, carol } = srv.net;
    const at = srv.ctx.now() - 200;
    const dm = (from: Person, to: Person, t: number) => sign(from, 4, t, `titok${t}?iv=AAAAAAAAAAAAAAAAAAAAAA==`, [['p', to.pk]]);
    const results = await srv.ctx.importer.importEvents([dm(bob, alice, at), dm(bob, alice, at + 1), dm(carol, alice, at + 2)]);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    await srv.ctx.db.run('INSERT INTO notification_counts (pubkey, type, cnt) VALUES (?, ?, ?)', [alice.pk, 4, 3]);
  });

  afterAll(async () => {
    await srv?.stop();
  });

  const cases = (): Case[] => {
    const { bob, carol } = srv.net;
    return [
      {
        command: 'set_app_settings',
        op: 'set_app_settings',
        otherOp: 'get_app_settings',
        field: 'settings_event',
        content: () => ({ theme: 'midnight' }),
        state: (who) => rows('SELECT event FROM app_settings WHERE pubkey = ?', [who.pk]),
      },
      {
        command: 'set_app_subsettings',
        op: 'set_app_subsettings_home',
        otherOp: 'set_app_subsettings_reads',
        content: () => ({ subkey: 'user-home-feeds', settings: [{ name: 'Saját', spec: '{"id":"latest","kind":"notes"}' }] }),
        param: 'subkey',
        state: (who) => rows('SELECT subkey, settings FROM app_subsettings WHERE pubkey = ?', [who.pk]),
      },
      {
        command: 'reset_directmsg_count',
        op: 'reset_direct_message_count',
        otherOp: 'mark_all_dms_as_read',
        content: () => ({ sender: bob.pk }),
        param: 'sender',
        state: (who) => rows('SELECT peer, cnt FROM dm_threads WHERE owner = ? ORDER BY peer', [who.pk]),
      },
      {
        command: 'reset_directmsg_counts',
        op: 'mark_all_dms_as_read',
        otherOp: 'reset_direct_message_count',
        content: () => ({ description: 'mark all as read' }),
        state: (who) => rows('SELECT peer, cnt FROM dm_threads WHERE owner = ? ORDER BY peer', [who.pk]),
      },
      {
        command: 'set_notifications_seen',
        op: 'notifications_laste_seen',
        otherOp: 'get_app_settings',
        content: () => ({ description: 'seen' }),
        state: (who) => rows('SELECT seen_until FROM notifications_seen WHERE pubkey = ?', [who.pk]),
      },
      {
        command: 'report_user',
        op: 'report_user',
        otherOp: 'report_note',
        content: () => ({ pubkey: carol.pk, reason: 'spam' }),
        param: 'pubkey',
        state: (who) => rows('SELECT target FROM reports WHERE reporter = ?', [who.pk]),
      },
      {
        command: 'membership_purchase_product',
        op: 'membership_purchase_product',
        otherOp: 'membership_status',
        content: () => ({ product_id: '3-months-premium', name: `alice${store}` }),
        param: 'product_id',
        state: (who) => rows('SELECT product_id FROM membership_quotes WHERE payer = ?', [who.pk]),
      },
      {
        command: 'wallet',
        op: 'nwc_connect',
        otherOp: 'is_user',
        field: 'operation_event',
        kind: 10000803,
        content: () => ['nwc_connect', { appname: 'Próba' }],
        state: (who) => rows('SELECT appname FROM wallet_nwc_connections WHERE pubkey = ?', [who.pk]),
      },
    ];
  };

  it('refuses every stretched or replayed request with a NOTICE and changes nothing; the valid one works', async () => {
    const { alice } = srv.net;
    for (const k of cases()) {
      const field = k.field ?? 'event_from_user';
      const now = srv.ctx.now();
      const body = k.content(alice);
      const event = (op: string, at = now, who = alice, signedBody = body) => appRequest(who, op, signedBody, at, k.kind);
      const before = await k.state(alice);
      const refused: [string, Obj][] = [
        ['wrong op', { [field]: event('something_else') }],
        ['op of another command', { [field]: event(k.otherOp) }],
        ['no op', { [field]: sign(alice, k.kind ?? 30078, now, JSON.stringify(body), [['d', 'Primal-Web App']]) }],
        ['six minutes old', { [field]: event(k.op, now - SIX_MINUTES) }],
        ['six minutes ahead', { [field]: event(k.op, now + SIX_MINUTES) }],
        ["a stranger's key claiming alice", { [field]: { ...event(k.op, now, mallory), pubkey: alice.pk } }],
      ];
      if (k.param) {
        const signedBody = { ...(body as Obj) };
        const value = signedBody[k.param];
        delete signedBody[k.param];
        refused.push(['parameter outside the signed content', { [field]: event(k.op, now, alice, signedBody), [k.param]: value }]);
      }
      for (const [what, kwargs] of refused) {
        const r = await req(k.command, kwargs);
        expect(r.notices, `${k.command}: ${what}`).toHaveLength(1);
        expect(r.events, `${k.command}: ${what}`).toEqual([]);
        expect(await k.state(alice), `${k.command}: ${what}`).toEqual(before);
      }
      const ok = await req(k.command, { [field]: event(k.op) });
      expect(ok.notices, `${k.command}: valid`).toEqual([]);
      expect(await k.state(alice), `${k.command}: valid`).not.toEqual(before);
    }
  });

  it('a request signed for one subsettings list cannot write another', async () => {
    const { alice } = srv.net;
    const before = await rows('SELECT settings FROM app_subsettings WHERE pubkey = ? AND subkey = ?', [alice.pk, 'user-reads-feeds']);
    const r = await req('set_app_subsettings', { event_from_user: appRequest(alice, 'set_app_subsettings_home', { subkey: 'user-reads-feeds', settings: [] }) });
    expect(r.notices[0]).toMatch(/not for subkey user-reads-feeds/);
    expect(await rows('SELECT settings FROM app_subsettings WHERE pubkey = ? AND subkey = ?', [alice.pk, 'user-reads-feeds'])).toEqual(before);
  });

  it('reads saved settings (moderation included) only with a fresh request signed for reading them', async () => {
    const { alice } = srv.net;
    const now = srv.ctx.now();
    // NIP-78 events are public on relays: before, any kind-30078 event of alice's opened her settings.
    const published = sign(alice, 30078, now - 3600, JSON.stringify({ theme: 'midnight' }), [['d', 'Primal-Web App']]);
    for (const command of ['get_app_settings', 'get_app_settings_2']) {
      for (const [what, event] of [
        ['a public 30078 of hers', published],
        ['signed for writing them', appRequest(alice, 'set_app_settings', { theme: 'ice' })],
        ['six minutes old', appRequest(alice, 'get_app_settings', {}, now - SIX_MINUTES)],
        ['six minutes ahead', appRequest(alice, 'get_app_settings', {}, now + SIX_MINUTES)],
      ] as [string, VerifiedEvent][]) {
        const r = await req(command, { event_from_user: event });
        expect(r.notices, `${command}: ${what}`).toHaveLength(1);
        expect(r.events, `${command}: ${what}`).toEqual([]);
      }
      const ok = await req(command, { event_from_user: appRequest(alice, 'get_app_settings', { description: 'Sync app settings' }) });
      expect(ok.notices).toEqual([]);
      expect(content<Record<string, unknown>>(ok.events[0]).theme).toBe('midnight');
    }
  });

  it('answers unread and notification counts and the seen mark only to the owner’s signed request', async () => {
    const { alice, bob, carol } = srv.net;
    const fresh = (op: string, who: Person = alice, at = srv.ctx.now()) => appRequest(who, op, { description: op }, at);
    await srv.ctx.db.run("UPDATE dm_threads SET cnt = 2 WHERE owner = ? AND peer = ?", [alice.pk, carol.pk]);

    // Guests still see whom alice talks with, never how much is unread.
    const guest = await req('get_directmsg_contacts', { user_pubkey: alice.pk });
    expect(guest.notices).toEqual([]);
    const guestSummary = content<Record<string, { cnt: number }>>(ofKind(guest.events, 10000118)[0]);
    expect(Object.keys(guestSummary).sort()).toEqual([bob.pk, carol.pk].sort());
    expect(Object.values(guestSummary).map((p) => p.cnt)).toEqual([0, 0]);
    const own = await req('get_directmsg_contacts', { user_pubkey: alice.pk, event_from_user: fresh('get_directmsg_contacts') });
    expect(own.notices).toEqual([]);
    expect(content<Record<string, { cnt: number }>>(ofKind(own.events, 10000118)[0])[carol.pk].cnt).toBe(2);

    const privateReads: [string, string, string][] = [
      ['get_directmsg_contacts', 'user_pubkey', 'get_directmsg_contacts'],
      ['directmsg_count', 'pubkey', 'directmsg_count'],
      ['directmsg_count_2', 'pubkey', 'directmsg_count'],
      ['notification_counts', 'pubkey', 'notification_counts'],
      ['notification_counts_2', 'pubkey', 'notification_counts'],
      ['notifications', 'pubkey', 'notifications'],
      ['get_notifications_seen', 'pubkey', 'get_notifications_seen'],
    ];
    const now = srv.ctx.now();
    for (const [command, pubkeyArg, op] of privateReads) {
      const refused: [string, Obj][] = [
        ["someone else's signed request", { [pubkeyArg]: alice.pk, event_from_user: fresh(op, mallory) }],
        ['signed for another op', { [pubkeyArg]: alice.pk, event_from_user: fresh('get_app_settings') }],
        ['six minutes old', { [pubkeyArg]: alice.pk, event_from_user: fresh(op, alice, now - SIX_MINUTES) }],
        ['six minutes ahead', { [pubkeyArg]: alice.pk, event_from_user: fresh(op, alice, now + SIX_MINUTES) }],
      ];
      if (command !== 'get_directmsg_contacts') refused.push(['unsigned', { [pubkeyArg]: alice.pk }]);
      for (const [what, kwargs] of refused) {
        const r = await req(command, kwargs);
        expect(r.notices, `${command}: ${what}`).toHaveLength(1);
        expect(r.events, `${command}: ${what}`).toEqual([]);
      }
    }

    const counts = await req('notification_counts', { pubkey: alice.pk, event_from_user: fresh('notification_counts') });
    expect(counts.notices).toEqual([]);
    const dmCount = await req('directmsg_count', { event_from_user: fresh('directmsg_count') });
    expect(dmCount.notices).toEqual([]);
    const seen = await req('get_notifications_seen', { pubkey: alice.pk, event_from_user: fresh('get_notifications_seen') });
    expect(seen.notices).toEqual([]);
    expect(seen.events).toHaveLength(1);
    for (const subid of [...counts.frames, ...dmCount.frames].map((f) => f.msg[1])) c.send(JSON.stringify(['CLOSE', subid]));
  });
});
