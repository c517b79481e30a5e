/**
 * Content moderation (S §2.3) on both stores: mutes of authors, words, hashtags and threads
 * hide posts in feeds and threads for that viewer only; subscribed mute lists; the operator's
 * spam group with the allow list and follows as exceptions; search_filterlist reasons;
 * reports; and rules that follow list and settings changes at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearModerationCache } from '../../server/moderation/hidden.ts';
import { content, ofKind, type CacheClient } from './cache-client.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import { person, sign, type Person as Who } from './people.ts';


describe.each(['sqlite', 'postgres'] as const)('content moderation (%s)', (store) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  let now: number;
  const [vera, walt, vera2, A, B, C, D, X, owner, S1, S2, S3, operator] = Array.from({ length: 13 }, person);
  const n: Record<string, ReturnType<typeof sign>> = {};
  /** A signed request (protocol C.1) for `op`; its parameters are in the signed content. */
  const appData = (who: Who, body: unknown, op = 'set_app_settings') => sign(who, 30078, now, JSON.stringify(body), [['d', 'Primal-Web App', op]]);

  const feedIds = async (viewer: Who, sub: string) => {
    const r = await c.req(sub, 'feed', { pubkey: viewer.pk, notes: 'follows', include_replies: true, limit: 100, user_pubkey: viewer.pk });
    return new Set(ofKind(r.events, 1).map((e) => e.id as string));
  };
  const threadReplies = async (viewer: Who, sub: string) => {
    const r = await c.req(sub, 'thread_view', { event_id: n.b3.id, limit: 50, user_pubkey: viewer.pk });
    return new Set(ofKind(r.events, 1).map((e) => e.id as string));
  };
  const hidden = async (viewer: Who, sub: string, pubkeys: string[], event_ids: string[] = [], scope = 'content') => {
    const r = await c.req(sub, 'is_hidden_by_content_moderation', { user_pubkey: viewer.pk, scope, pubkeys, event_ids });
    expect(r.events[0].kind).toBe(10000137);
    return content<{ pubkeys: Record<string, boolean>; event_ids: Record<string, boolean> }>(r.events[0]);
  };

  beforeAll(async () => {
    srv = await startCacheServer(store);
    c = await srv.connect();
    now = srv.ctx.now();
    srv.ctx.config.operatorPubkey = operator.pk;
    clearModerationCache();
    const t = (s: number) => now - 1000 + s;
    n.a = sign(A, 1, t(1), 'A bejegyzése');
    n.b1 = sign(B, 1, t(2), 'Ez TILOS dolog, ne olvasd.');
    n.b2 = sign(B, 1, t(3), 'Címkés bejegyzés', [['t', 'Tiltott']]);
    n.b3 = sign(B, 1, t(4), 'Szép napot mindenkinek!');
    n.c = sign(C, 1, t(5), 'Egy hosszú szál kezdete');
    n.d = sign(D, 1, t(6), 'Válasz a szálra', [['e', n.c.id, '', 'root'], ['p', C.pk]]);
    n.x = sign(X, 1, t(7), 'X bejegyzése');
    n.s3 = sign(S3, 1, t(8), 'Követett, de listázott');
    n.tilosWord = sign(B, 1, t(9), 'Tilosban járni érdekes.');
    const reply = (who: Who, text: string, at: number) => sign(who, 1, at, text, [['e', n.b3.id, '', 'root'], ['p', B.pk]]);
    n.rA = reply(A, 'A válasza', t(10));
    n.rS1 = reply(S1, 'Kéretlen reklám', t(11));
    n.rS2 = reply(S2, 'Engedélyezett válasz', t(12));
    n.rC = reply(C, 'C válasza', t(13));
    const follows = [A, B, C, D, X, S3].map((p) => ['p', p.pk]);
    const lists = [
      sign(vera, 3, t(0), '', follows),
      sign(walt, 3, t(0), '', follows),
      sign(vera2, 3, t(0), '', follows),
      sign(vera, 10000, t(0), '', [['p', A.pk], ['p', vera.pk], ['word', 'tilos'], ['t', 'tiltott'], ['e', n.c.id]]),
      sign(vera, 30000, t(0), '', [['d', 'mutelists'], ['p', owner.pk, '', 'lista']]),
      sign(vera, 30000, t(0), '', [['d', 'allowlist'], ['p', S2.pk]]),
      sign(vera2, 30000, t(0), '', [['d', 'mutelists'], ['p', owner.pk, '', '', '{"content":false,"trending":true}']]),
      sign(owner, 10000, t(0), '', [['p', X.pk]]),
      sign(operator, 30000, t(0), '', [['d', 'spam'], ['p', S1.pk], ['p', S2.pk], ['p', S3.pk]]),
    ];
    const profiles = [vera, owner].map((p) => sign(p, 0, t(0), JSON.stringify({ name: p === vera ? 'vera' : 'listagazda' })));
    const res = await srv.ctx.importer.importEvents([...profiles, ...lists, ...Object.values(n)]);
    expect(res.filter((r) => !r.ok)).toEqual([]);
  }, 60_000);
  afterAll(async () => {
    if (srv) srv.ctx.config.operatorPubkey = '';
    clearModerationCache();
    await srv?.stop();
  });

  it('hides muted authors, words, hashtags and threads from that viewer’s feed only', async () => {
    const vf = await feedIds(vera, 'fv');
    for (const k of ['a', 'b1', 'b2', 'c', 'd', 'x', 'rA']) expect(vf.has(n[k].id), k).toBe(false);
    // Whole words only: "Tilosban" stays, the followed S3 stays despite the spam group.
    for (const k of ['b3', 's3', 'tilosWord', 'rC']) expect(vf.has(n[k].id), k).toBe(true);
    const wf = await feedIds(walt, 'fw');
    for (const k of ['a', 'b1', 'b2', 'c', 'd', 'x', 'b3', 's3', 'rA']) expect(wf.has(n[k].id), k).toBe(true);
  });

  it('filters thread replies by mutes, the spam group and the allow list', async () => {
    const v = await threadReplies(vera, 'tv');
    expect([v.has(n.rA.id), v.has(n.rS1.id), v.has(n.rS2.id), v.has(n.rC.id)]).toEqual([false, false, true, true]);
    // Walt has default settings: the spam group applies to him too, but he muted nobody and allows nobody.
    const w = await threadReplies(walt, 'tw');
    expect([w.has(n.rA.id), w.has(n.rS1.id), w.has(n.rS2.id), w.has(n.rC.id)]).toEqual([true, false, false, true]);
  });

  it('answers is_hidden_by_content_moderation per scope', async () => {
    const h = await hidden(vera, 'h1', [A.pk, X.pk, S1.pk, S2.pk, S3.pk, B.pk, vera.pk], [n.b1.id, n.b3.id, n.d.id]);
    expect(h.pubkeys).toEqual({ [A.pk]: true, [X.pk]: true, [S1.pk]: true, [S2.pk]: false, [S3.pk]: false, [B.pk]: false, [vera.pk]: false });
    expect(h.event_ids).toEqual({ [n.b1.id]: true, [n.b3.id]: false, [n.d.id]: true });
    // vera2 follows owner's mute list for trending only.
    expect((await hidden(vera2, 'h2', [X.pk])).pubkeys[X.pk]).toBe(false);
    expect((await hidden(vera2, 'h3', [X.pk], [], 'trending')).pubkeys[X.pk]).toBe(true);
    const bad = await c.req('h4', 'is_hidden_by_content_moderation', { user_pubkey: vera.pk, scope: 'everywhere', pubkeys: [] });
    expect(bad.notices).toEqual(['invalid scope: expected content or trending']);
  });

  it('search_filterlist gives the reason and the blocker’s profile', async () => {
    const why = async (pk: string, sub: string) => (await c.req(sub, 'search_filterlist', { pubkey: pk, user_pubkey: vera.pk })).events;
    const own = await why(A.pk, 'w1');
    expect(content(own[0])).toEqual({ action: 'block', pubkey: vera.pk });
    expect(own[0].kind).toBe(10000131);
    expect(own[1]).toMatchObject({ kind: 0, pubkey: vera.pk });
    const sub = await why(X.pk, 'w2');
    expect(content(sub[0])).toEqual({ action: 'block', pubkey: owner.pk });
    expect(sub[1]).toMatchObject({ kind: 0, pubkey: owner.pk });
    expect(content((await why(S1.pk, 'w3'))[0])).toEqual({ action: 'block', group: 'primal_spam' });
    expect(content((await why(S2.pk, 'w4'))[0])).toEqual({ action: 'allow', pubkey: vera.pk });
    expect(await why(B.pk, 'w5')).toEqual([]);
  });

  it('stores reports only from valid signed events', async () => {
    const ok = await c.req('r1', 'report_user', { event_from_user: appData(walt, { pubkey: S1.pk, reason: 'spam' }, 'report_user') });
    expect([ok.events, ok.notices]).toEqual([[], []]);
    const note = await c.req('r2', 'report_note', { event_from_user: appData(walt, { event_id: n.rS1.id }, 'report_note') });
    expect(note.notices).toEqual([]);
    const forged = { ...appData(vera, { pubkey: S1.pk }, 'report_user'), content: JSON.stringify({ pubkey: B.pk }) };
    const bad = await c.req('r3', 'report_user', { event_from_user: forged });
    expect(bad.notices[0]).toMatch(/signature/);
    const rows = await srv.ctx.db.all<{ reporter: string; target: string }>('SELECT reporter, target FROM reports ORDER BY target_type');
    expect(rows).toEqual(
      expect.arrayContaining([
        { reporter: walt.pk, target: n.rS1.id },
        { reporter: walt.pk, target: S1.pk },
      ]),
    );
    expect(rows.some((r) => r.target === B.pk)).toBe(false);
    const online = await c.req('o1', 'set_last_time_user_was_online', { event_from_user: sign(walt, 30078, now, String(now - 5), [['d', 'Primal-Web App', 'set_last_time_user_was_online']]) });
    expect(online.notices).toEqual([]);
    const at = await srv.ctx.db.get<{ online_at: number | string }>('SELECT online_at FROM user_last_online WHERE pubkey = ?', [walt.pk]);
    expect(Number(at?.online_at)).toBe(now - 5);
  });

  it('follows list and settings changes at once', async () => {
    // Turning content moderation off drops the groups; the own mutes stay.
    await c.req('s1', 'set_app_settings', { settings_event: appData(vera, { applyContentModeration: false }) });
    const off = await hidden(vera, 'c1', [S1.pk, A.pk]);
    expect(off.pubkeys).toEqual({ [S1.pk]: false, [A.pk]: true });
    // A newer mute list without A brings A back into the feed.
    const res = await srv.ctx.importer.importEvents([sign(vera, 10000, now - 10, '', [['word', 'tilos']])]);
    expect(res[0].ok).toBe(true);
    const vf = await feedIds(vera, 'c2');
    expect(vf.has(n.a.id)).toBe(true);
    expect(vf.has(n.b1.id)).toBe(false);
    // The subscribed owner unmutes X: vera sees X again.
    await srv.ctx.importer.importEvents([sign(owner, 10000, now - 10, '', [])]);
    expect((await hidden(vera, 'c3', [X.pk])).pubkeys[X.pk]).toBe(false);
  });
});
