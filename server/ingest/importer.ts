import type { EventEmitter } from 'node:events';
import { getEventHash } from 'nostr-tools/pure';
import type { ImportResult, Importer, NostrEvent } from '../context.ts';
import type { Database } from '../store/db.ts';
import { applyEvent } from './apply.ts';
import { isAcceptedKind } from './kinds.ts';
import { initVerifier, MAX_EVENT_CHARS, validateShape, verifySignature } from './verify.ts';

/** How far in the future created_at may be (S §5.2 step 4). */
export const MAX_FUTURE_SECONDS = 300;
const DEDUPE_CACHE_SIZE = 200_000;
const DB_LOOKUP_CHUNK = 500;
/** Signature checks are synchronous; yielding this often keeps other sockets answered during a big import. */
const VERIFY_SLICE = 256;

export interface ImporterDeps {
  db: Database;
  live: EventEmitter;
  now(): number;
}

/** Ids already stored, most recent last; a Map keeps insertion order, which makes it an LRU. */
class IdCache {
  private readonly ids = new Map<string, true>();
  constructor(private readonly max: number) {}
  has(id: string): boolean {
    if (!this.ids.has(id)) return false;
    this.ids.delete(id);
    this.ids.set(id, true);
    return true;
  }
  add(id: string): void {
    this.ids.delete(id);
    this.ids.set(id, true);
    if (this.ids.size > this.max) this.ids.delete(this.ids.keys().next().value as string);
  }
  delete(id: string): void {
    this.ids.delete(id);
  }
}

function idOf(raw: unknown): string {
  const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : '';
}

function result(id: string, ok: boolean, reason: string): ImportResult {
  return { id, ok, reason };
}

/**
 * The one ingestion path for relays, the cache endpoint's import_events and the demo seed.
 * Checks run in the order of protocol S §5.2; the cheap id dedupe comes before the costly
 * signature check, and everything that survives is applied in one transaction per batch.
 */
export function createImporter(deps: ImporterDeps): Importer {
  const seen = new IdCache(DEDUPE_CACHE_SIZE);

  async function importEvents(events: unknown[], _source?: string): Promise<ImportResult[]> {
    if (!Array.isArray(events)) return [];
    await initVerifier();
    const now = deps.now();
    const results: ImportResult[] = new Array(events.length);
    const pending: { index: number; event: NostrEvent }[] = [];

    for (let i = 0; i < events.length; i++) {
      const raw = events[i];
      const id = idOf(raw);
      let size: number;
      try {
        size = JSON.stringify(raw)?.length ?? 0;
      } catch {
        results[i] = result(id, false, 'invalid: event is not serialisable');
        continue;
      }
      if (size > MAX_EVENT_CHARS) {
        results[i] = result(id, false, `invalid: event larger than ${MAX_EVENT_CHARS} characters`);
        continue;
      }
      const event = validateShape(raw);
      if (typeof event === 'string') {
        results[i] = result(id, false, `invalid: ${event}`);
        continue;
      }
      if (seen.has(event.id)) {
        results[i] = result(event.id, true, 'duplicate: already have this event');
        continue;
      }
      pending.push({ index: i, event });
    }

    const stored = new Set<string>();
    for (let i = 0; i < pending.length; i += DB_LOOKUP_CHUNK) {
      const ids = pending.slice(i, i + DB_LOOKUP_CHUNK).map((p) => p.event.id);
      const rows = await deps.db.all<{ id: string }>(`SELECT id FROM events WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
      for (const row of rows) stored.add(row.id);
    }

    const accepted: { index: number; event: NostrEvent }[] = [];
    const verifiedInBatch = new Set<string>();
    let verified = 0;
    for (const p of pending) {
      const { event } = p;
      if (++verified % VERIFY_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      if (stored.has(event.id) || verifiedInBatch.has(event.id)) {
        seen.add(event.id);
        results[p.index] = result(event.id, true, 'duplicate: already have this event');
        continue;
      }
      if (!verifySignature(event)) {
        const badId = getEventHash(event) !== event.id;
        results[p.index] = result(event.id, false, badId ? 'invalid: event id does not match its content' : 'invalid: bad signature');
        continue;
      }
      verifiedInBatch.add(event.id);
      if (event.created_at > now + MAX_FUTURE_SECONDS) {
        results[p.index] = result(event.id, false, 'invalid: created_at is too far in the future');
        continue;
      }
      if (!isAcceptedKind(event.kind)) {
        results[p.index] = result(event.id, false, `blocked: kind ${event.kind} is not accepted`);
        continue;
      }
      accepted.push(p);
    }
    if (accepted.length === 0) return results;

    const visible: NostrEvent[] = [];
    const removed: string[] = [];
    try {
      await deps.db.transaction(async (tx) => {
        for (const { index, event } of accepted) {
          // A savepoint per event: one event's failure must not cost the rest of the batch
          // (and PostgreSQL refuses every later statement in a transaction after an error).
          await tx.run('SAVEPOINT import_event');
          try {
            const outcome = await applyEvent(tx, event, now);
            await tx.run('RELEASE SAVEPOINT import_event');
            results[index] = result(event.id, outcome.ok, outcome.reason);
            if (outcome.visible) visible.push(event);
            removed.push(...outcome.deleted);
          } catch (err) {
            await tx.run('ROLLBACK TO SAVEPOINT import_event');
            await tx.run('RELEASE SAVEPOINT import_event');
            results[index] = result(event.id, false, `error: ${(err as Error).message}`);
          }
        }
      });
    } catch (err) {
      for (const { index, event } of accepted) results[index] = result(event.id, false, `error: ${(err as Error).message}`);
      return results;
    }

    for (const { index, event } of accepted) if (results[index].ok) seen.add(event.id);
    for (const id of removed) seen.delete(id);
    const gone = new Set(removed);
    for (const event of visible) {
      if (gone.has(event.id)) continue;
      try {
        deps.live.emit('event', event);
      } catch {
        // A faulty listener must not turn a stored event into a failed import.
      }
    }
    return results;
  }

  return { importEvents };
}
