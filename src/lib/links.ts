/** Where a note or a person lives in the app: the one place that builds /e/ and /p/ links. */
import { naddrEncode, neventEncode } from 'nostr-tools/nip19';
import { toNpub } from '../../core/profile';

type Person = string | { pubkey: string; npub?: string };

/** The person's npub: the profile's own, else encoded from the hex key (left as is when it is not one). */
export function npubOf(who: Person): string {
  if (typeof who === 'string') return toNpub(who);
  return who.npub || toNpub(who.pubkey);
}

export function profileHref(who: Person): string {
  return `/p/${npubOf(who)}`;
}

/** An addressable event (an article) by its address, as an naddr; `fallback` when it cannot be encoded. */
export function addressHref(address: { kind: number; pubkey: string; identifier: string }, relayHint?: string, fallback = ''): string {
  try {
    return `/a/${naddrEncode({ ...address, relays: relayHint ? [relayHint] : [] })}`;
  } catch {
    return fallback;
  }
}

/** An article's page by its d tag; its note page when the address cannot be encoded. */
export function articleHref(event: { id: string; kind: number; pubkey: string; tags: string[][] }, relayHint?: string): string {
  const identifier = event.tags.find((t) => t[0] === 'd')?.[1] ?? '';
  return addressHref({ kind: event.kind, pubkey: event.pubkey, identifier }, relayHint, `/e/${event.id}`);
}

/** The thread of a note, as an nevent naming its author (and the relay it came from, when known). */
export function noteHref(event: { id: string; pubkey?: string }, relayHint?: string): string {
  try {
    return `/e/${neventEncode({ id: event.id, author: event.pubkey, relays: relayHint ? [relayHint] : [] })}`;
  } catch {
    return `/e/${event.id}`;
  }
}
