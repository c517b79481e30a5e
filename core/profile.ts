/** Kind-0 metadata to the Profile the UI draws, and the spec's display-name rule (§3 "User profile"). */
import { npubEncode } from 'nostr-tools/nip19';
import type { NostrEvent, Profile } from './types.ts';

const HEX64 = /^[0-9a-f]{64}$/;

export function toNpub(pubkey: string): string {
  if (!HEX64.test(pubkey)) return pubkey;
  try {
    return npubEncode(pubkey);
  } catch {
    return pubkey;
  }
}

/** Spec: an npub longer than 23 characters becomes first 15, two dots, last 10. */
export function shortNpub(npub: string): string {
  return npub.length > 23 ? `${npub.slice(0, 15)}..${npub.slice(-10)}` : npub;
}

export function emptyProfile(pubkey: string): Profile {
  return {
    pubkey,
    npub: toNpub(pubkey),
    name: '',
    displayName: '',
    about: '',
    picture: '',
    banner: '',
    nip05: '',
    lud16: '',
    lud06: '',
    website: '',
    location: '',
    created_at: 0,
  };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

/** Malformed or non-object JSON yields empty fields (spec §3, §8), never an exception. */
export function parseProfile(event: Pick<NostrEvent, 'pubkey' | 'content' | 'created_at'>): Profile {
  const profile = emptyProfile(event.pubkey);
  profile.created_at = typeof event.created_at === 'number' ? event.created_at : 0;
  let meta: unknown;
  try {
    meta = JSON.parse(event.content);
  } catch {
    return profile;
  }
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return profile;
  const m = meta as Record<string, unknown>;
  profile.name = str(m.name);
  // Clients disagree on the key; NIP-24 says display_name, older ones wrote displayName.
  profile.displayName = str(m.display_name) || str(m.displayName);
  profile.about = str(m.about);
  profile.picture = str(m.picture);
  profile.banner = str(m.banner);
  profile.nip05 = str(m.nip05);
  profile.lud16 = str(m.lud16);
  profile.lud06 = str(m.lud06);
  profile.website = str(m.website);
  profile.location = str(m.location);
  return profile;
}

/** Display name, else name, else the shortened npub. */
export function displayName(profile: Pick<Profile, 'displayName' | 'name' | 'npub' | 'pubkey'>): string {
  return profile.displayName || profile.name || shortNpub(profile.npub || toNpub(profile.pubkey));
}
