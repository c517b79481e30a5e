import { useMemo } from 'react';
import type { Profile } from '../../../core/types';
import { useWorkerRequest } from '../../lib/useWorkerRequest';

/** Typing pauses this long before a name search goes out, so each keystroke does not cost a request. */
export const USER_SEARCH_DEBOUNCE_MS = 250;
/** Spec §9: user search shows 10. */
export const USER_SEARCH_LIMIT = 10;

export interface UserSearchState {
  /** The term the users were found for ('' before any search). */
  term: string;
  users: Profile[];
  loading: boolean;
  failed: boolean;
}

const IDLE: UserSearchState = { term: '', users: [], loading: false, failed: false };

/** user_search {query, limit 10} for the latest term, debounced; an empty term clears the list. */
export function useUserSearch(query: string, enabled = true): UserSearchState {
  const term = query.trim();
  // The previous term's people stay listed while the next term's answer is on its way.
  const { data, error, loading } = useWorkerRequest(
    enabled && term ? (api) => api.searchUsers(term, USER_SEARCH_LIMIT).then((users) => ({ term, users })) : null,
    [term, enabled],
    { delayMs: USER_SEARCH_DEBOUNCE_MS, keep: true },
  );
  return useMemo(() => {
    if (!enabled || !term) return IDLE;
    if (error !== undefined) return { term, users: [], loading: false, failed: true };
    return { term: data?.term ?? '', users: data?.users ?? [], loading, failed: false };
  }, [enabled, term, data, error, loading]);
}
