/** Where a note or a person lives in the app: the one place that builds /e/ and /p/ links. */
import { neventEncode } from 'nostr-tools/nip19';
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

/** The thread of a note, as an nevent naming its author (and the relay it came from, when known). */
export function noteHref(event: { id: string; pubkey?: string }, relayHint?: string): string {
  try {
    return `/e/${neventEncode({ id: event.id, author: event.pubkey, relays: relayHint ? [relayHint] : [] })}`;
  } catch {
    return `/e/${event.id}`;
  }
}
