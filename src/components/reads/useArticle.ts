import { useCallback, useEffect, useState } from 'react';
import { decode } from 'nostr-tools/nip19';
import type { ThreadSnapshot } from '../../../core/types';
import { tabId } from '../../worker-client';
import { useWorkerWatch } from '../../lib/useWorkerWatch';

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
  const [error, setError] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const key = address ? `${address.kind}:${address.pubkey}:${address.identifier}` : '';
  const snapshot = useWorkerWatch<ThreadSnapshot>(
    address ? (api, cb) => api.openThread(tabId, { type: 'article', pubkey: address.pubkey, kind: address.kind, identifier: address.identifier }, cb) : null,
    (api, h) => api.closeThread(h),
    // `key` names the address; the object itself is rebuilt on every render.
    [key, attempt],
    { onError: (err) => setError(err instanceof Error ? err.message : String(err)) },
  );
  useEffect(() => setError(undefined), [key, attempt]);
  const state: ArticleThreadState =
    error !== undefined ? { status: 'error', error } : snapshot ? { status: 'snapshot', snapshot } : { status: 'loading' };
  return { state, retry: useCallback(() => setAttempt((a) => a + 1), []) };
}
