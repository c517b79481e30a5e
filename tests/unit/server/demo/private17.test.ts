/** The demo network's NIP-17 conversations: real gift wraps any NIP-17 client opens, and the inbox lists. */
import { beforeAll, describe, expect, it } from 'vitest';
import * as nip17 from 'nostr-tools/nip17';
import { setNostrWasm } from 'nostr-tools/wasm';
import { initNostrWasm } from 'nostr-wasm';
import type { Event } from 'nostr-tools/pure';
import type { NostrEvent } from '../../../../server/context.ts';
import { DEMO_LOGIN, DEMO_LOGIN_NSEC } from '../../../../server/demo/accounts.ts';
import { generateDemoNetwork } from '../../../../server/demo/generate.ts';
import { DEMO_LOGIN_PRIVATE_PEERS } from '../../../../server/demo/private17.ts';
import { decode } from 'nostr-tools/nip19';

const NOW = 1_760_000_000;
let events: NostrEvent[];

beforeAll(async () => {
  setNostrWasm(await initNostrWasm());
  events = (await generateDemoNetwork({ now: NOW, scale: 0.02 })).flat();
});

describe('demo private messages (NIP-17)', () => {
  it('wraps conversations with the demo login that nostr-tools opens, some unread, with inbox lists for the partners', () => {
    const secret = decode(DEMO_LOGIN_NSEC).data as Uint8Array;
    const mine = events.filter((e) => e.kind === 1059 && e.tags.some((t) => t[0] === 'p' && t[1] === DEMO_LOGIN.pubkey));
    const rumors = mine.map((w) => nip17.unwrapEvent(w as Event, secret));
    const partners = new Set(rumors.map((r) => (r.pubkey === DEMO_LOGIN.pubkey ? r.tags.find((t) => t[0] === 'p')![1] : r.pubkey)));
    expect(partners.size).toBe(DEMO_LOGIN_PRIVATE_PEERS);
    expect(rumors.every((r) => r.kind === 14 && r.content.length > 0)).toBe(true);
    // The demo login's own copies are there too (NIP-17 wraps one for the sender).
    expect(rumors.some((r) => r.pubkey === DEMO_LOGIN.pubkey)).toBe(true);
    // One conversation ends with the partner (unread), the other with the demo login (read).
    const lastBy = [...partners].map((p) => {
      const thread = rumors.filter((r) => r.pubkey === p || r.tags.some((t) => t[1] === p)).sort((a, b) => a.created_at - b.created_at);
      return thread.at(-1)!.pubkey;
    });
    expect(lastBy.filter((pk) => pk === DEMO_LOGIN.pubkey)).toHaveLength(1);
    const lists = events.filter((e) => e.kind === 10050);
    for (const p of partners) expect(lists.some((l) => l.pubkey === p)).toBe(true);
    expect(lists.some((l) => l.pubkey === DEMO_LOGIN.pubkey)).toBe(false);
    // Wraps between other demo accounts exist too, and their authors are one-time keys.
    expect(events.filter((e) => e.kind === 1059).length).toBeGreaterThan(mine.length);
    expect(new Set(mine.map((w) => w.pubkey)).size).toBe(mine.length);
  });
});
