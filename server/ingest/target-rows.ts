import type { NostrEvent } from '../context.ts';

/**
 * The events row of each target an acting event (reaction, repost, reply, quote) was recorded on, as
 * recordAction read it, for the notification indexer that runs after it for the same event: on
 * PostgreSQL every read waits for a round trip. Nothing the importer writes between the two changes
 * another event's row (an event only writes its own, and deletions are kind 5, which acts on nothing).
 * Keyed by the event object, so an event applied elsewhere is not found here and is read as before.
 */
const targets = new WeakMap<NostrEvent, Map<string, NostrEvent | null>>();

/** Called by recordAction with what it read (`undefined`: no such event stored). */
export function rememberTarget(actor: NostrEvent, id: string, stored: NostrEvent | undefined): void {
  let mine = targets.get(actor);
  if (!mine) {
    mine = new Map();
    targets.set(actor, mine);
  }
  mine.set(id, stored ?? null);
}

/** The events row of `id` as recordAction read it for `actor`; undefined when it did not read it. */
export function readTarget(actor: NostrEvent, id: string): NostrEvent | null | undefined {
  return targets.get(actor)?.get(id);
}

/** Called when `actor` is applied (again): rows read by an earlier, rolled-back attempt no longer hold. */
export function forgetTargets(actor: NostrEvent): void {
  targets.delete(actor);
}
