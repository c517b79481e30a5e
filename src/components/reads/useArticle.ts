import { useCallback, useEffect, useState } from 'react';
import { decode } from 'nostr-tools/nip19';
import type { StruccApi, ThreadSnapshot } from '../../../core/types';
import { Comlink, connect, getApi, tabId, type Api } from '../../worker-client';

/** Comlink's Remote type cannot call an optional method; the worker implements these. */
type ThreadRemote = Required<Pick<StruccApi, 'openThread' | 'closeThread'>>;
const remote = (api: Api): ThreadRemote => api as unknown as ThreadRemote;

function closeThread(handle: number): void {
  const api = getApi();
  if (api) remote(api).closeThread(handle).catch(() => undefined);
}

export interface ArticleAddress {
  pubkey: string;
  kind: number;
  identifier: string;
  relays: string[];
}

/** An naddr from the route, or null when it is not one (the page then shows the missing placeholder). */
export function decodeArticleAddress(raw: string | undefined): ArticleAddress | null {
  if (!raw) return null;
  let value = raw;
  try {
    value = decodeURIComponent(raw);
  } catch {
    // Keep the raw segment.
  }
  value = value.replace(/^nostr:/, '');
  if (!value.startsWith('naddr1')) return null;
  try {
    const d = decode(value);
    if (d.type !== 'naddr') return null;
    return { pubkey: d.data.pubkey, kind: d.data.kind, identifier: d.data.identifier, relays: d.data.relays ?? [] };
  } catch {
    return null;
  }
}

export type ArticleThreadState = { status: 'loading' } | { status: 'error'; error: string } | { status: 'snapshot'; snapshot: ThreadSnapshot };

/** long_form_content_thread_view through the worker's thread service: the article and its replies. */
export function useArticleThread(address: ArticleAddress | null): { state: ArticleThreadState; retry: () => void } {
  const [state, setState] = useState<ArticleThreadState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const key = address ? `${address.kind}:${address.pubkey}:${address.identifier}` : '';
  useEffect(() => {
    if (!address) return;
    let live = true;
    let handle: number | null = null;
    setState({ status: 'loading' });
    connect()
      .then((api) =>
        remote(api).openThread(
          tabId,
          { type: 'article', pubkey: address.pubkey, kind: address.kind, identifier: address.identifier },
          Comlink.proxy((snapshot: ThreadSnapshot) => {
            if (live) setState({ status: 'snapshot', snapshot });
          }),
        ),
      )
      .then((h) => {
        if (!live) closeThread(h);
        else handle = h;
      })
      .catch((err: unknown) => {
        if (live) setState({ status: 'error', error: err instanceof Error ? err.message : String(err) });
      });
    return () => {
      live = false;
      if (handle !== null) closeThread(handle);
    };
    // `key` names the address; the object itself is rebuilt on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt]);
  return { state, retry: useCallback(() => setAttempt((a) => a + 1), []) };
}
