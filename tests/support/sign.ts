/** One way for tests to sign: real keys, real signatures, the fields a test does not care about filled. */
import { finalizeEvent, type EventTemplate } from 'nostr-tools/pure';
import type { NostrEvent } from '../../core/types.ts';

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Signs `t` with `key`: kind 1, no tags, empty content and the current second unless `t` says
 * otherwise. The copy is plain JSON so it compares equal to what comes off the wire (nostr-tools
 * marks the events it signed with a symbol).
 */
export function signEvent(key: Uint8Array, t: Partial<EventTemplate> = {}): NostrEvent {
  const event = finalizeEvent({ kind: 1, created_at: nowSeconds(), tags: [], content: '', ...t }, key);
  return JSON.parse(JSON.stringify(event)) as NostrEvent;
}
