/**
 * Kind-0 profiles for lists of people (muted users, subscribed lists, the allow list). Kept per
 * tab, so adding one person to a list fetches only that person.
 */
import { parseProfile, emptyProfile } from '../../../core/profile';
import type { CacheObject, NostrEvent, Profile } from '../../../core/types';
import { connect } from '../../worker-client';
import { useRequest } from '../../lib/useWorkerRequest';

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
  const missing = [...new Set(pubkeys)].filter((p) => !known.has(p) && !asked.has(p)).sort();
  const key = missing.join(',');
  // The answer goes to the shared store; the hook's new state is what draws the names again.
  useRequest(
    key
      ? () => {
          const wanted = key.split(',');
          for (const p of wanted) asked.add(p);
          return connect()
            .then((api) => api.request('user_infos', { pubkeys: wanted }))
            .then((reply) => rememberProfiles(reply.events))
            // A failed lookup leaves the generated avatar and the short npub; a later mount asks again.
            .catch((err: unknown) => {
              for (const p of wanted) asked.delete(p);
              throw err;
            });
        }
      : null,
    [key],
  );
  return profileOf;
}
