import { nip19 } from 'nostr-tools';
import type { NostrEvent } from '../context.ts';
import { isHex64 } from './verify.ts';
import { addressOf, parseAddress } from './kinds.ts';

/** A referenced event: by id, or by address "kind:pubkey:d" for addressable events. */
export interface Ref {
  type: 'e' | 'a';
  value: string;
}

export interface ReplyInfo {
  parent: Ref;
  root: Ref;
}

function refOf(tag: string[]): Ref | null {
  const [name, value] = tag;
  if (name === 'e' && isHex64(value)) return { type: 'e', value };
  if (name === 'a' && typeof value === 'string' && parseAddress(value)) return { type: 'a', value };
  return null;
}

/**
 * The parent of a reply (S §4.1): the last e/a tag marked "reply", else the first marked
 * "root", else the last e tag not marked "mention" (NIP-10's deprecated positional form,
 * and NIP-22's unmarked lowercase e). Returns null for a top-level post.
 */
export function replyInfo(event: NostrEvent): ReplyInfo | null {
  let reply: Ref | null = null;
  let root: Ref | null = null;
  let lastUnmarked: Ref | null = null;
  let firstUnmarked: Ref | null = null;
  for (const tag of event.tags) {
    const ref = refOf(tag);
    if (!ref) continue;
    const marker = tag[3];
    if (marker === 'reply') reply = ref;
    else if (marker === 'root') root ??= ref;
    else if (marker !== 'mention' && ref.type === 'e') {
      lastUnmarked = ref;
      firstUnmarked ??= ref;
    }
  }
  const parent = reply ?? root ?? lastUnmarked;
  if (!parent) return null;
  // Positional NIP-10: the first e tag is the root.
  return { parent, root: root ?? firstUnmarked ?? parent };
}

const NOSTR_URI = /nostr:((?:note|nevent|naddr)1[02-9ac-hj-np-z]+)/g;
const INDEXED_REF = /#\[(\d+)\]/g;

/**
 * Events a note quotes or mentions, each counted as a repost (S §4.1): e tags marked
 * "mention", q tags (NIP-18 quotes), #[n] references to e tags, and nostr:note / nevent /
 * naddr links in the content. Deduplicated; the note's own reply parent is not a quote.
 */
export function quotedRefs(event: NostrEvent, reply: ReplyInfo | null): Ref[] {
  // The importer and the notification indexer both ask for each note; the content scans and nip19
  // decodes were ~3 % of the write path's CPU, so the second ask reuses the first answer.
  const parent = reply?.parent.value;
  const known = quotedMemo.get(event);
  if (known && known.parent === parent) return known.refs;
  const refs = scanQuotedRefs(event, reply);
  quotedMemo.set(event, { parent, refs });
  return refs;
}

const quotedMemo = new WeakMap<NostrEvent, { parent: string | undefined; refs: Ref[] }>();

function scanQuotedRefs(event: NostrEvent, reply: ReplyInfo | null): Ref[] {
  const out = new Map<string, Ref>();
  const add = (ref: Ref | null) => {
    if (ref && !(reply && reply.parent.value === ref.value)) out.set(ref.value, ref);
  };
  for (const tag of event.tags) {
    if (tag[0] === 'e' && tag[3] === 'mention') add(refOf(tag));
    else if (tag[0] === 'q' && typeof tag[1] === 'string') {
      add(isHex64(tag[1]) ? { type: 'e', value: tag[1] } : parseAddress(tag[1]) ? { type: 'a', value: tag[1] } : null);
    }
  }
  for (const m of event.content.matchAll(INDEXED_REF)) {
    const tag = event.tags[Number(m[1])];
    if (tag && tag[0] === 'e') add(refOf(tag));
  }
  for (const m of event.content.matchAll(NOSTR_URI)) add(decodeRef(m[1]));
  return [...out.values()];
}

function decodeRef(code: string): Ref | null {
  try {
    const decoded = nip19.decode(code);
    if (decoded.type === 'note') return { type: 'e', value: decoded.data };
    if (decoded.type === 'nevent') return isHex64(decoded.data.id) ? { type: 'e', value: decoded.data.id } : null;
    if (decoded.type === 'naddr') {
      const { kind, pubkey, identifier } = decoded.data;
      return isHex64(pubkey) ? { type: 'a', value: addressOf(kind, pubkey, identifier) } : null;
    }
  } catch {
    // A malformed link in the text is just text.
  }
  return null;
}

const MEDIA_URL = /https?:\/\/[^\s"'<>]+?\.(?:png|jpe?g|gif|webp|avif|svg|bmp|mp4|mov|m4v|webm|ogg|ogv)(?:[?#][^\s"'<>]*)?(?=$|[\s"'<>),.!?;:])/i;

/** Whether a post shows an image or a video (media gallery, "with media" feeds). */
export function hasMedia(event: NostrEvent): boolean {
  if (event.kind === 20 || event.kind === 34235 || event.kind === 34236) return true;
  return MEDIA_URL.test(event.content);
}
