import { useEffect, useState } from 'react';
import type { Profile, StruccApi } from '../../../core/types';
import { connect, type Api } from '../../worker-client';

/** Typing pauses this long before a name search goes out, so each keystroke does not cost a request. */
export const USER_SEARCH_DEBOUNCE_MS = 250;
/** Spec §9: user search shows 10. */
export const USER_SEARCH_LIMIT = 10;

type SearchRemote = Required<Pick<StruccApi, 'searchUsers'>>;
const remote = (api: Api): SearchRemote => api as unknown as SearchRemote;

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
  const [state, setState] = useState<UserSearchState>(IDLE);
  const term = query.trim();
  useEffect(() => {
    if (!enabled || !term) {
      setState(IDLE);
      return;
    }
    let live = true;
    setState((s) => ({ ...s, loading: true, failed: false }));
    const timer = window.setTimeout(() => {
      connect()
        .then((api) => remote(api).searchUsers(term, USER_SEARCH_LIMIT))
        .then((users) => live && setState({ term, users, loading: false, failed: false }))
        .catch(() => live && setState({ term, users: [], loading: false, failed: true }));
    }, USER_SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [term, enabled]);
  return state;
}
