/**
 * What one event points at: other events (e tags, nostr:note/nevent, #[n]), addresses
 * (a tags, naddr) and people (p/P tags, npub/nprofile). The enrichment walk follows these.
 */
import { decode } from 'nostr-tools/nip19';
import type { NostrEvent } from '../context.ts';
import { isHex64 } from './args.ts';
import type { Address } from './data.ts';

export interface Refs {
  ids: string[];
  addresses: Address[];
  pubkeys: string[];
}

const NOSTR_URI = /nostr:((?:note|nevent|naddr|npub|nprofile)1[02-9ac-hj-np-z]+)/g;
const LEGACY_MENTION = /#\[(\d+)\]/g;

export function parseAddress(value: unknown): Address | undefined {
  if (typeof value !== 'string') return undefined;
  const first = value.indexOf(':');
  const second = value.indexOf(':', first + 1);
  if (first < 1 || second < 0) return undefined;
  const kind = Number(value.slice(0, first));
  const pubkey = value.slice(first + 1, second).toLowerCase();
  if (!Number.isInteger(kind) || kind < 0 || !isHex64(pubkey)) return undefined;
  return { kind, pubkey, d: value.slice(second + 1) };
}

/** Refs of the frozen (cached, unchangeable) events data.ts shares between replies: each is parsed once. */
const known = new WeakMap<NostrEvent, Refs>();

/** The references of `ev`; the result is shared for a frozen event, so callers only read it. */
export function extractRefs(ev: NostrEvent): Refs {
  if (!Object.isFrozen(ev)) return parseRefs(ev);
  let refs = known.get(ev);
  if (!refs) known.set(ev, (refs = parseRefs(ev)));
  return refs;
}

function parseRefs(ev: NostrEvent): Refs {
  const ids = new Set<string>();
  const pubkeys = new Set<string>();
  const addresses: Address[] = [];
  const addEvent = (v: unknown) => {
    if (isHex64(v)) ids.add(v.toLowerCase());
  };
  const addPubkey = (v: unknown) => {
    if (isHex64(v)) pubkeys.add(v.toLowerCase());
  };
  const addAddress = (a: Address | undefined) => {
    if (a) addresses.push(a);
  };

  for (const t of ev.tags) {
    if (!Array.isArray(t)) continue;
    if (t[0] === 'e') addEvent(t[1]);
    else if (t[0] === 'q') isHex64(t[1]) ? addEvent(t[1]) : addAddress(parseAddress(t[1]));
    else if (t[0] === 'a') addAddress(parseAddress(t[1]));
    else if (t[0] === 'p' || t[0] === 'P') addPubkey(t[1]);
  }

  // Kind 0 and 3 content is not prose; only notes and articles carry inline references.
  if (ev.kind !== 0 && ev.kind !== 3 && typeof ev.content === 'string') {
    for (const m of ev.content.matchAll(NOSTR_URI)) {
      try {
        const d = decode(m[1]);
        if (d.type === 'note') addEvent(d.data);
        else if (d.type === 'nevent') addEvent(d.data.id);
        else if (d.type === 'naddr') addAddress({ kind: d.data.kind, pubkey: d.data.pubkey, d: d.data.identifier });
        else if (d.type === 'npub') addPubkey(d.data);
        else if (d.type === 'nprofile') addPubkey(d.data.pubkey);
      } catch {
        // A malformed bech32 string in prose is just text.
      }
    }
    for (const m of ev.content.matchAll(LEGACY_MENTION)) {
      const tag = ev.tags[Number(m[1])];
      if (!Array.isArray(tag)) continue;
      if (tag[0] === 'e') addEvent(tag[1]);
      else if (tag[0] === 'p') addPubkey(tag[1]);
    }
  }
  return { ids: [...ids], addresses, pubkeys: [...pubkeys] };
}

/** The target a repost or reaction is about: its first `e` tag. */
export function firstETag(ev: NostrEvent): string | undefined {
  const t = ev.tags.find((x) => Array.isArray(x) && x[0] === 'e' && isHex64(x[1]));
  return t ? t[1].toLowerCase() : undefined;
}
