import { beforeAll, describe, expect, it } from 'vitest';
import { decode } from 'light-bolt11-decoder';
import { nip04, nip19 } from 'nostr-tools';
import { getPublicKey as purePublicKey } from 'nostr-tools/pure';
import { setNostrWasm, verifyEvent } from 'nostr-tools/wasm';
import { initNostrWasm } from 'nostr-wasm';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import type { NostrEvent } from '../../../../server/context.ts';
import {
  DEMO_LOGIN, DEMO_LOGIN_NPUB, DEMO_LOGIN_NSEC, HOUSE, HOUSE_PUBKEY, ZAPPER_PUBKEY, demoSecretKey, demoUser,
} from '../../../../server/demo/accounts.ts';
import { generateDemoNetwork } from '../../../../server/demo/generate.ts';

const NOW = 1_760_000_000;
const WINDOW = 30 * 24 * 3600;
const SCALE = 0.05;
const utf8 = new TextEncoder();

let batches: NostrEvent[][];
let events: NostrEvent[];
let byId: Map<string, NostrEvent>;
/** Position of each event in import order. */
let position: Map<string, number>;

const ofKind = (kind: number) => events.filter((e) => e.kind === kind);
const tagValues = (e: NostrEvent, name: string) => e.tags.filter((t) => t[0] === name).map((t) => t[1]);
const tag = (e: NostrEvent, name: string) => e.tags.find((t) => t[0] === name)?.[1];

beforeAll(async () => {
  setNostrWasm(await initNostrWasm());
  batches = await generateDemoNetwork({ now: NOW, scale: SCALE });
  events = batches.flat();
  byId = new Map(events.map((e) => [e.id, e]));
  position = new Map(events.map((e, i) => [e.id, i]));
});

describe('demo accounts', () => {
  it('derives every key from sha256("strucc-demo:" + label)', () => {
    expect(bytesToHex(demoSecretKey('house'))).toBe(bytesToHex(sha256(utf8.encode('strucc-demo:house'))));
    expect(HOUSE_PUBKEY).toBe(purePublicKey(sha256(utf8.encode('strucc-demo:house'))));
    expect(HOUSE.pubkey).toBe(HOUSE_PUBKEY);
    expect(demoUser(1).pubkey).toBe(DEMO_LOGIN.pubkey);
    expect(bytesToHex(DEMO_LOGIN.secretKey)).toBe(bytesToHex(sha256(utf8.encode('strucc-demo:user:1'))));
  });

  it('exports the demo login as nsec and npub', () => {
    const sk = nip19.decode(DEMO_LOGIN_NSEC);
    expect(sk.type).toBe('nsec');
    expect(bytesToHex(sk.data as Uint8Array)).toBe(bytesToHex(DEMO_LOGIN.secretKey));
    expect(nip19.decode(DEMO_LOGIN_NPUB).data).toBe(DEMO_LOGIN.pubkey);
  });
});

describe('generateDemoNetwork (small scale)', () => {
  it('is deterministic for the same seed and now, and differs for another seed', async () => {
    const again = (await generateDemoNetwork({ now: NOW, scale: SCALE })).flat();
    expect(again.map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(again.map((e) => e.sig)).toEqual(events.map((e) => e.sig));
    const other = (await generateDemoNetwork({ now: NOW, scale: SCALE, seed: 'masik' })).flat();
    expect(other.filter((e) => e.kind === 1)[20].id).not.toBe(events.filter((e) => e.kind === 1)[20].id);
  });

  it('produces valid, uniquely identified events in batches of at most 1000', () => {
    expect(batches.every((b) => b.length > 0 && b.length <= 1000)).toBe(true);
    expect(byId.size).toBe(events.length);
    const bad = events.filter((e) => !verifyEvent({ ...e }));
    expect(bad).toEqual([]);
  });

  it('contains every expected kind', () => {
    const kinds = new Set(events.map((e) => e.kind));
    for (const k of [0, 1, 3, 4, 5, 6, 7, 9735, 10000, 10002, 10003, 30023]) expect(kinds, `kind ${k}`).toContain(k);
    expect(ofKind(0).length).toBeGreaterThanOrEqual(12);
  });

  it('keeps every timestamp in the 30 days before now', () => {
    for (const e of events) {
      expect(e.created_at).toBeLessThanOrEqual(NOW);
      expect(e.created_at).toBeGreaterThanOrEqual(NOW - WINDOW);
    }
    expect(events.some((e) => e.created_at > NOW - 24 * 3600 && e.kind === 1)).toBe(true);
  });

  it('gives profiles unique ASCII NIP-05 names, lightning addresses and demo media', () => {
    const names = new Set<string>();
    for (const e of ofKind(0)) {
      const meta = JSON.parse(e.content) as Record<string, string>;
      expect(meta.nip05).toMatch(/^[a-z0-9._-]+@strucc\.test$/);
      expect(names.has(meta.nip05)).toBe(false);
      names.add(meta.nip05);
      if (e.pubkey === ZAPPER_PUBKEY) continue;
      expect(meta.lud16).toBe(meta.nip05);
      expect(meta.picture).toBe(`https://media.strucc.test/avatar/${e.pubkey.slice(0, 8)}.svg`);
      expect(meta.banner).toMatch(/^https:\/\/media\.strucc\.test\/banner\/\d+\.svg$/);
      expect(meta.about.length).toBeGreaterThan(5);
    }
    const house = ofKind(0).find((e) => e.pubkey === HOUSE_PUBKEY);
    expect(JSON.parse(house?.content ?? '{}')).toMatchObject({ name: 'strucc', display_name: 'Strucc' });
  });

  it('has everyone follow at least five accounts, and the house account follow the active ones', () => {
    const contacts = ofKind(3);
    expect(contacts.length).toBe(ofKind(10002).length);
    for (const e of contacts) expect(tagValues(e, 'p').length).toBeGreaterThanOrEqual(5);
    const house = contacts.find((e) => e.pubkey === HOUSE_PUBKEY);
    expect(tagValues(house!, 'p').length).toBeGreaterThanOrEqual(10);
  });

  it('threads replies with NIP-10 markers onto earlier, existing notes, at most five deep', () => {
    const replies = ofKind(1).filter((e) => e.tags.some((t) => t[0] === 'e' && t[3] === 'root'));
    expect(replies.length).toBeGreaterThan(0);
    const depth = (e: NostrEvent): number => {
      const parent = e.tags.find((t) => t[0] === 'e' && t[3] === 'reply')?.[1] ?? e.tags.find((t) => t[3] === 'root')?.[1];
      return parent ? 1 + depth(byId.get(parent)!) : 0;
    };
    for (const r of replies) {
      for (const t of r.tags.filter((x) => x[0] === 'e')) {
        const target = byId.get(t[1]);
        expect(target?.kind).toBe(1);
        expect(target!.created_at).toBeLessThan(r.created_at);
        expect(position.get(target!.id)!).toBeLessThan(position.get(r.id)!);
        expect(t[4]).toBe(target!.pubkey);
      }
      expect(depth(r)).toBeLessThanOrEqual(5);
      expect(tagValues(r, 'p').length).toBeGreaterThan(0);
    }
    expect(Math.max(...replies.map(depth))).toBeGreaterThanOrEqual(2);
  });

  it('points reposts, quotes, reactions and bookmarks at earlier existing events', () => {
    for (const e of ofKind(6)) {
      const target = byId.get(tag(e, 'e')!);
      expect(JSON.parse(e.content)).toEqual(target);
      expect(target!.created_at).toBeLessThan(e.created_at);
    }
    const quotes = ofKind(1).filter((e) => e.content.includes('nostr:nevent1') || e.content.includes('nostr:note1'));
    expect(quotes.length).toBeGreaterThan(0);
    for (const q of quotes) expect(byId.has(tag(q, 'q') ?? tag(q, 'e')!)).toBe(true);
    for (const r of ofKind(7)) {
      const target = byId.get(tag(r, 'e')!);
      expect(target?.id).toBe(tag(r, 'e'));
      expect(tag(r, 'p')).toBe(target!.pubkey);
      expect(r.pubkey).not.toBe(target!.pubkey);
      expect(target!.created_at).toBeLessThan(r.created_at);
    }
    expect(ofKind(7).filter((r) => r.content === '+').length).toBeGreaterThan(ofKind(7).length / 2);
    for (const b of ofKind(10003)) for (const id of tagValues(b, 'e')) expect(byId.get(id)!.created_at).toBeLessThan(b.created_at);
  });

  it('deletes only the author\u2019s own notes that nothing refers to', () => {
    const referenced = new Set(events.filter((e) => e.kind !== 5).flatMap((e) => [...tagValues(e, 'e'), ...tagValues(e, 'q')]));
    for (const d of ofKind(5)) {
      const target = byId.get(tag(d, 'e')!);
      expect(target?.pubkey).toBe(d.pubkey);
      expect(referenced.has(target!.id)).toBe(false);
    }
  });

  it('writes zap receipts with real bolt11 invoices committing to the zap request', () => {
    const zaps = ofKind(9735);
    expect(zaps.length).toBeGreaterThanOrEqual(6);
    for (const z of zaps) {
      expect(z.pubkey).toBe(ZAPPER_PUBKEY);
      const description = tag(z, 'description')!;
      const request = JSON.parse(description) as NostrEvent;
      expect(request.kind).toBe(9734);
      expect(verifyEvent({ ...request })).toBe(true);
      expect(tag(z, 'P')).toBe(request.pubkey);
      expect(tag(z, 'p')).toBe(tag(request, 'p'));
      expect(tag(z, 'e')).toBe(tag(request, 'e'));
      const target = byId.get(tag(z, 'e')!);
      expect(target?.pubkey).toBe(tag(z, 'p'));
      expect(target!.created_at).toBeLessThan(z.created_at);

      const invoice = decode(tag(z, 'bolt11')!);
      const section = (name: string) => invoice.sections.find((s) => s.name === name) as { value?: unknown } | undefined;
      const msats = Number(section('amount')?.value);
      expect(String(msats)).toBe(tag(request, 'amount'));
      expect(msats / 1000).toBeGreaterThanOrEqual(21);
      expect(msats / 1000).toBeLessThanOrEqual(100_000);
      expect(section('description_hash')?.value).toBe(bytesToHex(sha256(utf8.encode(description))));
      expect(section('payment_hash')?.value).toBe(bytesToHex(sha256(Buffer.from(tag(z, 'preimage')!, 'hex'))));
      expect(section('timestamp')?.value).toBe(request.created_at);
    }
    expect(new Set(zaps.map((z) => tag(z, 'bolt11')!.match(/^lnbc\d+([munp]?)/)?.[1])).size).toBeGreaterThan(1);
  });

  it('writes long-form articles with metadata and a Markdown body', () => {
    for (const a of ofKind(30023)) {
      expect(tag(a, 'd')).toMatch(/^[a-z0-9-]+-[a-z0-9]{1,6}$/);
      for (const name of ['title', 'summary']) expect(tag(a, name)?.trim().length, name).toBeGreaterThan(0);
      expect(tag(a, 'image')).toMatch(/^https?:\/\/\S+$/);
      expect(tag(a, 'published_at')).toBe(String(a.created_at));
      expect(tagValues(a, 't').length).toBeGreaterThanOrEqual(2);
      const words = a.content.split(/\s+/).filter(Boolean).length;
      expect(words).toBeGreaterThanOrEqual(300);
      expect(words).toBeLessThanOrEqual(1500);
      expect(a.content).toMatch(/^## /m);
      expect(a.content).toMatch(/^- /m);
      expect(a.content).toMatch(/!\[[^\]]+\]\(https:\/\/media\.strucc\.test\/img\/\d+\.svg\)/);
    }
  });

  it('tags hashtags in lowercase and mentions with marked p tags', () => {
    const notes = ofKind(1);
    for (const n of notes) {
      for (const t of tagValues(n, 't')) {
        expect(t).toBe(t.toLowerCase());
        expect(n.content.toLowerCase()).toContain(`#${t}`);
      }
      for (const m of n.content.matchAll(/nostr:(npub1[0-9a-z]+)/g)) {
        const pk = nip19.decode(m[1]).data as string;
        expect(n.tags).toContainEqual(['p', pk, '', 'mention']);
      }
    }
    expect(notes.some((n) => n.content.includes('https://media.strucc.test/img/'))).toBe(true);
  });

  it('encrypts direct messages with NIP-04 so the recipient can read them', () => {
    const dms = ofKind(4);
    const labels = new Map<string, Uint8Array>();
    for (let i = 1; i <= 40; i++) labels.set(demoUser(i).pubkey, demoUser(i).secretKey);
    for (const dm of dms) {
      const recipient = tag(dm, 'p')!;
      const text = nip04.decrypt(labels.get(recipient)!, dm.pubkey, dm.content);
      expect(text.length).toBeGreaterThan(0);
    }
    expect(dms.some((d) => d.pubkey === DEMO_LOGIN.pubkey || tag(d, 'p') === DEMO_LOGIN.pubkey)).toBe(true);
  });
});

describe('demo login conversations', () => {
  it('talks with five people even on a small network; in every second one the demo login wrote last', () => {
    const mine = ofKind(4).filter((d) => d.pubkey === DEMO_LOGIN.pubkey || tag(d, 'p') === DEMO_LOGIN.pubkey);
    const lastBy = new Map<string, NostrEvent>();
    for (const d of mine) {
      const peer = d.pubkey === DEMO_LOGIN.pubkey ? tag(d, 'p')! : d.pubkey;
      const prev = lastBy.get(peer);
      if (!prev || d.created_at >= prev.created_at) lastBy.set(peer, d);
    }
    expect(lastBy.size).toBe(5);
    const demoLast = [...lastBy.values()].filter((d) => d.pubkey === DEMO_LOGIN.pubkey).length;
    expect(demoLast).toBeGreaterThan(0);
    expect(demoLast).toBeLessThan(5);
    // Other accounts still write to each other.
    expect(ofKind(4).length).toBeGreaterThan(mine.length);
  });
});

describe('generateDemoNetwork (full scale)', () => {
  it('reaches the full-scale counts', { timeout: 180_000 }, async () => {
    const started = performance.now();
    const all = (await generateDemoNetwork({ now: NOW, scale: 1 })).flat();
    const seconds = (performance.now() - started) / 1000;
    const count = (k: number) => all.filter((e) => e.kind === k).length;
    const users = count(0) - 2; // without the house account and the zap service
    console.log(`demo network at scale 1: ${all.length} events in ${seconds.toFixed(1)} s`, {
      users, notes: count(1), reactions: count(7), zaps: count(9735), articles: count(30023), reposts: count(6),
    });
    expect(users).toBeGreaterThanOrEqual(300);
    expect(count(1)).toBeGreaterThanOrEqual(10_000);
    expect(count(7)).toBeGreaterThanOrEqual(20_000);
    expect(count(9735)).toBeGreaterThanOrEqual(1_000);
    expect(count(30023)).toBeGreaterThanOrEqual(60);
    expect(all.filter((e) => e.kind === 1 && e.created_at > NOW - 24 * 3600).length).toBeGreaterThan(1000);
  });
});

describe('encodeBolt11', () => {
  it('signs invoices so the node pubkey is recoverable from the signature', async () => {
    const { bech32 } = await import('@scure/base');
    const { secp256k1 } = await import('@noble/curves/secp256k1');
    const { encodeBolt11, nodePubkey } = await import('../../../../server/demo/bolt11.ts');
    const nodeSecretKey = sha256(utf8.encode('test-node'));
    const invoice = encodeBolt11({
      amountSats: 2100, timestamp: NOW, paymentHash: sha256(utf8.encode('p')), paymentSecret: sha256(utf8.encode('s')),
      descriptionHash: sha256(utf8.encode('d')), expirySeconds: 3600, nodeSecretKey,
    });
    expect(invoice.startsWith('lnbc21u1')).toBe(true);
    const { prefix, words } = bech32.decode(invoice as `${string}1${string}`, false);
    const sigBytes = bech32.fromWords(words.slice(-104));
    const data = words.slice(0, -104);
    const bits = data.length * 5;
    const bytes = new Uint8Array(Math.ceil(bits / 8));
    data.forEach((w, i) => {
      for (let b = 0; b < 5; b++) if ((w >> (4 - b)) & 1) bytes[(i * 5 + b) >> 3] |= 0x80 >> ((i * 5 + b) & 7);
    });
    const hash = sha256(new Uint8Array([...utf8.encode(prefix), ...bytes]));
    const sig = secp256k1.Signature.fromCompact(sigBytes.slice(0, 64)).addRecoveryBit(sigBytes[64]);
    expect(sig.recoverPublicKey(hash).toHex(true)).toBe(nodePubkey(nodeSecretKey));
    expect(Number(decode(invoice).sections.find((s) => s.name === 'amount')?.value)).toBe(2_100_000);
  });
});
