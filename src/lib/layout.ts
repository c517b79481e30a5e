import { useSyncExternalStore } from 'react';

/** The phone layout of layout.css (spec §9: at or below 720 px); keep the two in step. */
export const PHONE_QUERY = '(max-width: 720px)';

/**
 * Whether the phone layout applies, following resizes. The shell mounts only the navigation its
 * layout shows: the hidden ones cost every first render their React work and DOM for nothing.
 */
export function usePhoneLayout(): boolean {
  return useSyncExternalStore(subscribePhone, isPhone, isPhone);
}

let query: MediaQueryList | undefined;
const phoneQuery = () => (query ??= window.matchMedia(PHONE_QUERY));
const isPhone = () => phoneQuery().matches;

function subscribePhone(changed: () => void): () => void {
  const q = phoneQuery();
  q.addEventListener('change', changed);
  return () => q.removeEventListener('change', changed);
}
