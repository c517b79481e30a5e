import { useCallback, useEffect, useRef, useState } from 'react';
import type { AccountSnapshot, CacheObject, NostrEvent, Profile, ProfileSnapshot, ProfileTab } from '../../../core/types';
import { parseProfile } from '../../../core/profile';
import { connect, tabId } from '../../worker-client';
import { CacheKind } from '../../../core/kinds';
import { useWorkerWatch } from '../../lib/useWorkerWatch';
import { useWorkerRequest } from '../../lib/useWorkerRequest';

const NO_PROFILES: Record<string, Profile> = {};

export interface ProfileControls {
  snapshot: ProfileSnapshot | null;
  failure?: string;
  loadTab: (tab: ProfileTab) => void;
  loadMore: (tab: ProfileTab) => void;
}

/** One worker profile page per mounted profile; a new pubkey reuses it through setProfileKey. */
export function useProfilePage(pubkey: string | undefined): ProfileControls {
  const [failure, setFailure] = useState<string | undefined>();
  const handleRef = useRef<number | null>(null);
  // Tabs asked for before the worker handed out the page's handle are sent once it has.
  const queued = useRef<ProfileTab[]>([]);

  const snapshot = useWorkerWatch<ProfileSnapshot>(
    pubkey ? (api, cb) => api.openProfile(tabId, pubkey, cb) : null,
    (api, h) => api.closeProfile(h),
    [pubkey],
    {
      onHandle: (h) => {
        handleRef.current = h;
        if (h === null) return;
        const tabs = queued.current.splice(0);
        void connect().then((api) => tabs.forEach((tab) => api.loadProfileTab(h, tab)));
      },
      onError: (err) => setFailure(err instanceof Error ? err.message : String(err)),
    },
  );
  useEffect(() => {
    setFailure(undefined);
    // Cleared as the old page closes, before the new page's tabs ask again.
    return () => {
      queued.current = [];
    };
  }, [pubkey]);

  const loadTab = useCallback((tab: ProfileTab) => {
    const h = handleRef.current;
    if (h !== null) void connect().then((api) => api.loadProfileTab(h, tab));
    else queued.current.push(tab);
  }, []);
  const loadMore = useCallback((tab: ProfileTab) => {
    const h = handleRef.current;
    if (h !== null) void connect().then((api) => api.loadMoreProfileTab(h, tab));
  }, []);
  return { snapshot, failure, loadTab, loadMore };
}

export type Viewer = { status: 'loading' } | { status: 'guest' } | { status: 'user'; pubkey: string };

const SETTLING = new Set<AccountSnapshot['login']['state']>(['booting', 'detecting', 'busy', 'unlocking']);

/** Who is looking: the signed-in (or read-only) account, a guest, or not known yet. */
export function useViewer(): Viewer {
  const [viewer, setViewer] = useState<Viewer>({ status: 'loading' });
  useWorkerWatch<AccountSnapshot>(
    (api, cb) => api.watchAccount(tabId, cb),
    (api, h) => api.unwatchAccount(h),
    [],
    {
      onValue: (s) => {
        if (s.login.pubkey) setViewer((v) => (v.status === 'user' && v.pubkey === s.login.pubkey ? v : { status: 'user', pubkey: s.login.pubkey as string }));
        else if (!SETTLING.has(s.login.state)) setViewer((v) => (v.status === 'guest' ? v : { status: 'guest' }));
      },
      onError: () => setViewer({ status: 'guest' }),
    },
  );
  return viewer;
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** True when the viewer's filters (mute lists, spam and nsfw groups) block this profile. */
export function useBlocked(pubkey: string | undefined, viewer: string | undefined): boolean {
  const { data: blocked } = useWorkerRequest(
    pubkey
      ? (api) =>
          api.request('search_filterlist', viewer ? { pubkey, user_pubkey: viewer } : { pubkey }).then((reply) => {
            const reason = reply.events.find((o: CacheObject) => o.kind === CacheKind.FILTERING_REASON);
            const content = parseJson(reason?.content) as { action?: unknown } | undefined;
            return content?.action === 'block';
          })
      : null,
    [pubkey, viewer],
  );
  // Without an answer the profile is shown: hiding is the filter's job, not the network's.
  return blocked === true;
}

/** Kind-0 profiles of the given pubkeys (zap senders), fetched once per set. */
export function useUserInfos(pubkeys: string[]): Record<string, Profile> {
  const key = [...new Set(pubkeys)].sort().join(',');
  const { data } = useWorkerRequest(
    key
      ? (api) =>
          api.request('user_infos', { pubkeys: key.split(',') }).then((reply) => {
            const out: Record<string, Profile> = {};
            for (const o of reply.events) {
              if (o.kind === 0 && typeof o.pubkey === 'string' && typeof o.content === 'string') out[o.pubkey] = parseProfile(o as unknown as NostrEvent);
            }
            return out;
          })
      : null,
    [key],
    // A new sender asks for the whole set again; the names already shown stay meanwhile.
    { keep: true },
  );
  return data ?? NO_PROFILES;
}
