import type { NostrEvent } from '../context.ts';

/**
 * The parent_id just written to each post's posts row (applyPost), for the indexers that run after it:
 * on PostgreSQL every read waits for a round trip. Keyed by the event object, so an event applied
 * elsewhere (another process, a rebuild) is not found here and is read from the table.
 */
const parents = new WeakMap<NostrEvent, string | null>();

/** Called by applyPost with what it wrote (no posts row outlives its event, so this stays the row). */
export function rememberPost(event: NostrEvent, parent: string | null): void {
  parents.set(event, parent);
}

/** posts.is_reply and parent_id of `event` as applyPost wrote them (a reply always has a parent), if it did. */
export function writtenPost(event: NostrEvent): { isReply: 0 | 1; parent: string | null } | undefined {
  const parent = parents.get(event);
  return parent === undefined ? undefined : { isReply: parent === null ? 0 : 1, parent };
}
