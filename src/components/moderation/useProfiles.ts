/**
 * Kind-0 profiles for lists of people (muted users, subscribed lists, the allow list). Kept per
 * tab, so adding one person to a list fetches only that person.
 */
import { useEffect, useState } from 'react';
import { parseProfile, emptyProfile } from '../../../core/profile';
import type { CacheObject, NostrEvent, Profile } from '../../../core/types';
import { fullApi } from '../../lib/account';

const known = new Map<string, Profile>();
const asked = new Set<string>();

/** Kind 0s of a cache reply into the shared store; returns how many were new. */
export function rememberProfiles(objects: CacheObject[]): void {
  for (const o of objects) {
    if (o.kind !== 0 || typeof o.pubkey !== 'string' || typeof o.content !== 'string') continue;
    const profile = parseProfile(o as unknown as NostrEvent);
    const old = known.get(profile.pubkey);
    if (!old || old.created_at <= profile.created_at) known.set(profile.pubkey, profile);
  }
}

export function rememberProfile(profile: Profile): void {
  known.set(profile.pubkey, profile);
}

/** The profile when known, else an empty one (the display name falls back to the short npub). */
export function profileOf(pubkey: string): Profile {
  return known.get(pubkey) ?? emptyProfile(pubkey);
}

export function useProfiles(pubkeys: string[]): (pubkey: string) => Profile {
  const [, setVersion] = useState(0);
  const missing = [...new Set(pubkeys)].filter((p) => !known.has(p) && !asked.has(p)).sort();
  const key = missing.join(',');
  useEffect(() => {
    if (!key) return;
    let live = true;
    const wanted = key.split(',');
    for (const p of wanted) asked.add(p);
    fullApi()
      .then((api) => api.request('user_infos', { pubkeys: wanted }))
      .then((reply) => {
        rememberProfiles(reply.events);
        if (live) setVersion((v) => v + 1);
      })
      // A failed lookup leaves the generated avatar and the short npub; a later mount asks again.
      .catch(() => {
        for (const p of wanted) asked.delete(p);
      });
    return () => {
      live = false;
    };
  }, [key]);
  return profileOf;
}
