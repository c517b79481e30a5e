import { useCallback, useEffect, useRef, useState } from 'react';
import type { AccountSnapshot, CacheObject, NostrEvent, Profile, ProfileSnapshot, ProfileTab, StruccApi } from '../../../core/types';
import { parseProfile } from '../../../core/profile';
import { Comlink, connect, getApi, tabId, type Api } from '../../worker-client';
import { CacheKind } from '../../../core/kinds';

/** Comlink's Remote type cannot call an optional method; the worker always implements these. */
type ProfileRemote = Required<
  Pick<StruccApi, 'openProfile' | 'setProfileKey' | 'loadProfileTab' | 'loadMoreProfileTab' | 'closeProfile' | 'watchAccount' | 'unwatchAccount'>
>;
const remote = (api: Api): ProfileRemote => api as unknown as ProfileRemote;

export interface ProfileControls {
  snapshot: ProfileSnapshot | null;
  failure?: string;
  loadTab: (tab: ProfileTab) => void;
  loadMore: (tab: ProfileTab) => void;
}

/** One worker profile page per mounted profile; a new pubkey reuses it through setProfileKey. */
export function useProfilePage(pubkey: string | undefined): ProfileControls {
  const [snapshot, setSnapshot] = useState<ProfileSnapshot | null>(null);
  const [failure, setFailure] = useState<string | undefined>();
  const handleRef = useRef<number | null>(null);
  // Tabs asked for before the worker handed out the page's handle are sent once it has.
  const queued = useRef<ProfileTab[]>([]);

  useEffect(() => {
    if (!pubkey) return;
    let live = true;
    let opened: number | null = null;
    setSnapshot(null);
    setFailure(undefined);
    connect()
      .then((api) => remote(api).openProfile(tabId, pubkey, Comlink.proxy((s: ProfileSnapshot) => live && setSnapshot(s))))
      .then((h) => {
        if (!live) {
          void connect().then((api) => remote(api).closeProfile(h));
          return;
        }
        opened = h;
        handleRef.current = h;
        for (const tab of queued.current.splice(0)) void remote(getApi() as Api).loadProfileTab(h, tab);
      })
      .catch((err: unknown) => live && setFailure(err instanceof Error ? err.message : String(err)));
    return () => {
      live = false;
      handleRef.current = null;
      queued.current = [];
      const api = getApi();
      if (opened !== null && api) void remote(api).closeProfile(opened);
    };
  }, [pubkey]);

  const loadTab = useCallback((tab: ProfileTab) => {
    const api = getApi();
    if (handleRef.current !== null && api) void remote(api).loadProfileTab(handleRef.current, tab);
    else queued.current.push(tab);
  }, []);
  const loadMore = useCallback((tab: ProfileTab) => {
    const api = getApi();
    if (handleRef.current !== null && api) void remote(api).loadMoreProfileTab(handleRef.current, tab);
  }, []);
  return { snapshot, failure, loadTab, loadMore };
}

export type Viewer = { status: 'loading' } | { status: 'guest' } | { status: 'user'; pubkey: string };

const SETTLING = new Set<AccountSnapshot['login']['state']>(['booting', 'detecting', 'busy', 'unlocking']);

/** Who is looking: the signed-in (or read-only) account, a guest, or not known yet. */
export function useViewer(): Viewer {
  const [viewer, setViewer] = useState<Viewer>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    let handle: number | null = null;
    const apply = (s: AccountSnapshot) => {
      if (!live) return;
      if (s.login.pubkey) setViewer((v) => (v.status === 'user' && v.pubkey === s.login.pubkey ? v : { status: 'user', pubkey: s.login.pubkey as string }));
      else if (!SETTLING.has(s.login.state)) setViewer((v) => (v.status === 'guest' ? v : { status: 'guest' }));
    };
    connect()
      .then((api) => remote(api).watchAccount(tabId, Comlink.proxy(apply)))
      .then((h) => {
        handle = h;
        if (!live) void connect().then((api) => remote(api).unwatchAccount(h));
      })
      .catch(() => live && setViewer({ status: 'guest' }));
    return () => {
      live = false;
      if (handle !== null) void connect().then((api) => remote(api).unwatchAccount(handle as number));
    };
  }, []);
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
  const [blocked, setBlocked] = useState(false);
  useEffect(() => {
    setBlocked(false);
    if (!pubkey) return;
    let live = true;
    connect()
      .then((api) => api.request('search_filterlist', viewer ? { pubkey, user_pubkey: viewer } : { pubkey }))
      .then((reply) => {
        const reason = reply.events.find((o: CacheObject) => o.kind === CacheKind.FILTERING_REASON);
        const content = parseJson(reason?.content) as { action?: unknown } | undefined;
        if (live) setBlocked(content?.action === 'block');
      })
      // Without an answer the profile is shown: hiding is the filter's job, not the network's.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [pubkey, viewer]);
  return blocked;
}

/** Kind-0 profiles of the given pubkeys (zap senders), fetched once per set. */
export function useUserInfos(pubkeys: string[]): Record<string, Profile> {
  const [profiles, setProfiles] = useState<Record<string, Profile>>({});
  const key = [...new Set(pubkeys)].sort().join(',');
  useEffect(() => {
    if (!key) return;
    let live = true;
    connect()
      .then((api) => api.request('user_infos', { pubkeys: key.split(',') }))
      .then((reply) => {
        const out: Record<string, Profile> = {};
        for (const o of reply.events) {
          if (o.kind === 0 && typeof o.pubkey === 'string' && typeof o.content === 'string') out[o.pubkey] = parseProfile(o as unknown as NostrEvent);
        }
        if (live) setProfiles((prev) => ({ ...prev, ...out }));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [key]);
  return profiles;
}
