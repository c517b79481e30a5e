/**
 * The tags of a new kind-1 note, from its text and what it answers or quotes (spec §5):
 * hashtags → t (NIP-24, lowercase); nostr: references (NIP-27) → p / e / a tags marked mention;
 * a reply → NIP-10 root and reply markers plus the thread's p tags; a quote → a NIP-18 q tag.
 * At most 3 tags carry a relay hint (spec §9). Pure, so it is unit tested without a browser.
 */
import { decode, naddrEncode, neventEncode } from 'nostr-tools/nip19';
import type { NostrEvent, UnsignedEvent } from '../../core/types';

export const MAX_RELAY_HINTS = 3;
/** Bech32 longer than this is not an identifier anyone typed (spec §9). */
const BECH32_MAX = 5000;

/** The note a reply answers or a quote cites: its event and the relay it was seen on. */
export interface TargetNote {
  event: Pick<NostrEvent, 'id' | 'pubkey' | 'kind' | 'tags'>;
  relay?: string;
}

export interface NoteTagOptions {
  replyTo?: TargetNote;
  quote?: TargetNote;
  /** The writer: not tagged as a person to notify when the thread's p tags are carried over. */
  author?: string;
  /** NIP-30 custom emoji the text may use (:name: → image URL). */
  emojis?: Record<string, string>;
}

/** Same rule the reader uses (src/lib/content.ts): a # not glued to a word, URL path or entity. */
const HASHTAG = /(?<![\p{L}\p{N}_&/#])#([\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*)/gu;
const NOSTR_REF = /nostr:((?:npub1|nprofile1|note1|nevent1|naddr1)[02-9ac-hj-np-z]+)/g;
const LINK = /https?:\/\/[^\s<>"]+/g;
const EMOJI = /:([\w-]{1,64}):/g;

export function isRelayHint(url: string | undefined): url is string {
  return typeof url === 'string' && /^wss?:\/\/[^\s/?#]+/i.test(url);
}

/** Hashtags in order of first use, lowercase, without repeats; # inside links does not count. */
export function hashtagsOf(text: string): string[] {
  const outside = text.replace(LINK, ' ');
  const seen: string[] = [];
  for (const match of outside.matchAll(HASHTAG)) {
    const tag = match[1].toLowerCase();
    if (!seen.includes(tag)) seen.push(tag);
  }
  return seen;
}

export type NostrRef =
  | { type: 'profile'; bech32: string; pubkey: string; relay?: string }
  | { type: 'event'; bech32: string; id: string; relay?: string; author?: string }
  | { type: 'address'; bech32: string; coordinate: string; relay?: string };

/** Every valid nostr: reference in the text; a bad checksum or unknown prefix stays plain text. */
export function referencesOf(text: string): NostrRef[] {
  const refs: NostrRef[] = [];
  for (const match of text.matchAll(NOSTR_REF)) {
    const bech32 = match[1];
    if (bech32.length > BECH32_MAX) continue;
    try {
      const decoded = decode(bech32);
      const relay = (relays?: string[]) => relays?.find(isRelayHint);
      switch (decoded.type) {
        case 'npub':
          refs.push({ type: 'profile', bech32, pubkey: decoded.data });
          break;
        case 'nprofile':
          refs.push({ type: 'profile', bech32, pubkey: decoded.data.pubkey, relay: relay(decoded.data.relays) });
          break;
        case 'note':
          refs.push({ type: 'event', bech32, id: decoded.data });
          break;
        case 'nevent':
          refs.push({ type: 'event', bech32, id: decoded.data.id, relay: relay(decoded.data.relays), author: decoded.data.author });
          break;
        case 'naddr': {
          const { kind, pubkey, identifier, relays } = decoded.data;
          refs.push({ type: 'address', bech32, coordinate: `${kind}:${pubkey}:${identifier}`, relay: relay(relays) });
          break;
        }
      }
    } catch {
      // Not valid bech32: the author's text is published as typed, without a tag.
    }
  }
  return refs;
}

function dTag(event: TargetNote['event']): string {
  return event.tags.find((t) => t[0] === 'd')?.[1] ?? '';
}

function isAddressable(kind: number): boolean {
  return kind >= 30000 && kind < 40000;
}

export function coordinateOf(event: TargetNote['event']): string {
  return `${event.kind}:${event.pubkey}:${dTag(event)}`;
}

/** The nostr: reference a quote puts into the text: naddr for articles, nevent otherwise. */
export function quoteReference(target: TargetNote): string {
  const relays = isRelayHint(target.relay) ? [target.relay] : [];
  const { event } = target;
  if (isAddressable(event.kind)) {
    return `nostr:${naddrEncode({ kind: event.kind, pubkey: event.pubkey, identifier: dTag(event), relays })}`;
  }
  return `nostr:${neventEncode({ id: event.id, author: event.pubkey, kind: event.kind, relays })}`;
}

interface ThreadTags {
  tags: string[][];
  /** People of the thread: the parent's author first, then the parent's own p tags. */
  people: { pubkey: string; relay?: string }[];
}

/** NIP-10: the root is the parent's root tag, else its first unmarked e tag (old positional form), else the parent itself. */
function threadTags(parent: TargetNote): ThreadTags {
  const { event } = parent;
  const tags: string[][] = [];
  const parentRelay = parent.relay ?? '';
  const marked = (name: string, marker: string) => event.tags.find((t) => t[0] === name && t[3] === marker && t[1]);
  const rootE = marked('e', 'root') ?? event.tags.find((t) => t[0] === 'e' && t[1] && (t[3] === undefined || t[3] === ''));
  const rootA = marked('a', 'root');

  if (isAddressable(event.kind)) {
    // Answering an article: it is the root, by address and by this version's id.
    tags.push(['a', coordinateOf(event), parentRelay, 'root']);
    tags.push(['e', event.id, parentRelay, 'root', event.pubkey]);
  } else if (!rootE && !rootA) {
    tags.push(['e', event.id, parentRelay, 'root', event.pubkey]);
  } else {
    if (rootA) tags.push(['a', rootA[1], rootA[2] ?? '', 'root']);
    if (rootE) {
      const root = ['e', rootE[1], rootE[2] ?? '', 'root'];
      if (rootE[4]) root.push(rootE[4]);
      tags.push(root);
    }
    tags.push(['e', event.id, parentRelay, 'reply', event.pubkey]);
  }

  const people = [{ pubkey: event.pubkey, relay: undefined as string | undefined }];
  for (const t of event.tags) {
    if (t[0] === 'p' && /^[0-9a-f]{64}$/.test(t[1] ?? '')) people.push({ pubkey: t[1], relay: t[2] });
  }
  return { tags, people };
}

/** Keeps the first MAX_RELAY_HINTS relay fields; later ones (and non-relay junk) become ''. */
export function capRelayHints(tags: string[][], max = MAX_RELAY_HINTS): string[][] {
  let used = 0;
  return tags.map((tag) => {
    if (!['e', 'p', 'a', 'q'].includes(tag[0]) || tag.length < 3) return tag;
    const keep = isRelayHint(tag[2]) && used < max;
    if (keep) used += 1;
    const next = [...tag];
    next[2] = keep ? tag[2] : '';
    // A trailing empty relay says nothing; with a marker after it the position must stay.
    while (next.length > 2 && next[next.length - 1] === '') next.pop();
    return next;
  });
}

export function buildNoteTags(text: string, options: NoteTagOptions = {}): string[][] {
  const tags: string[][] = [];
  const people = new Set<string>();
  const events = new Set<string>();
  const addresses = new Set<string>();
  const addPerson = (pubkey: string, relay?: string, marker?: string) => {
    if (people.has(pubkey)) return;
    people.add(pubkey);
    tags.push(marker ? ['p', pubkey, relay ?? '', marker] : ['p', pubkey, relay ?? '']);
  };

  // Thread markers first: when hints run out, the ones that find the thread are kept.
  let threadPeople: ThreadTags['people'] = [];
  if (options.replyTo) {
    const thread = threadTags(options.replyTo);
    for (const t of thread.tags) {
      if (t[0] === 'e') events.add(t[1]);
      if (t[0] === 'a') addresses.add(t[1]);
      tags.push(t);
    }
    threadPeople = thread.people;
  }

  if (options.quote) {
    const { event } = options.quote;
    const cited = isAddressable(event.kind) ? coordinateOf(event) : event.id;
    // NIP-18: the author's pubkey rides along only for a regular event. The nevent/naddr in the text
    // also gets its e/a tag marked mention below, like any other mention (clients without q see it).
    tags.push(isAddressable(event.kind) ? ['q', cited, options.quote.relay ?? ''] : ['q', cited, options.quote.relay ?? '', event.pubkey]);
  }

  const refs = referencesOf(text);
  for (const ref of refs) {
    if (ref.type === 'event' && !events.has(ref.id)) {
      events.add(ref.id);
      tags.push(['e', ref.id, ref.relay ?? '', 'mention']);
    } else if (ref.type === 'address' && !addresses.has(ref.coordinate)) {
      addresses.add(ref.coordinate);
      tags.push(['a', ref.coordinate, ref.relay ?? '', 'mention']);
    }
  }

  for (const person of threadPeople) {
    // The writer's own key is only kept when they answer themselves.
    if (person.pubkey === options.author && person.pubkey !== options.replyTo?.event.pubkey) continue;
    addPerson(person.pubkey, person.relay);
  }
  if (options.quote) addPerson(options.quote.event.pubkey, undefined, 'mention');
  for (const ref of refs) if (ref.type === 'profile') addPerson(ref.pubkey, ref.relay, 'mention');

  for (const tag of hashtagsOf(text)) tags.push(['t', tag]);

  const emojis = options.emojis ?? {};
  const usedEmoji = new Set<string>();
  for (const match of text.matchAll(EMOJI)) {
    const name = match[1];
    if (Object.hasOwn(emojis, name) && !usedEmoji.has(name)) {
      usedEmoji.add(name);
      tags.push(['emoji', name, emojis[name]]);
    }
  }

  return capRelayHints(tags);
}

/** The kind-1 template the worker signs and publishes. */
export function buildNoteEvent(text: string, options: NoteTagOptions = {}, now = Date.now()): UnsignedEvent {
  return { kind: 1, content: text, tags: buildNoteTags(text, options), created_at: Math.floor(now / 1000) };
}
