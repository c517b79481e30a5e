import type { EventEmitter } from 'node:events';
import type { ImportResult, Importer, NostrEvent } from '../context.ts';
import { flush, type Database } from '../store/db.ts';
import { readGroupFacts } from './action-facts.ts';
import { applyEvent, readGroupAhead } from './apply.ts';
import { arrivalsOf } from './delete.ts';
import { isAcceptedKind } from './kinds.ts';
import { inThreadVerifier, type Verifier } from './verify-pool.ts';
import { MAX_EVENT_CHARS, VERIFY_BAD_ID, VERIFY_BAD_SIG, VERIFY_OK, validateShape, type VerifyCode } from './verify.ts';

/** How far in the future created_at may be (S §5.2 step 4). */
export const MAX_FUTURE_SECONDS = 300;
const DEDUPE_CACHE_SIZE = 200_000;
const DB_LOOKUP_CHUNK = 500;
/** Events per verify request: the pool checks later chunks while earlier ones are written. */
const VERIFY_CHUNK = 250;
/**
 * Events per write transaction (relay and seed batches are 1000). A transaction runs without yielding,
 * so this also bounds how long one import holds the event loop.
 */
const TX_EVENTS = 1000;
/**
 * How long a group written ahead of its verification may block the event loop before COMMIT for the
 * workers' codes; past it the group is rolled back and written again after the codes arrive. Waiting is
 * nearly always cheaper (the redo waits for the same codes and then writes the group a second time), so
 * this only bounds a stuck worker (a dead one is noticed at once); on a loaded 2-core machine one worker
 * took up to ~1.4 s for a 1000-event call.
 */
const SETTLE_WAIT_MS = 2000;

/**
 * Whether a crash may lose an import's last commits (PostgreSQL then commits without waiting for the WAL
 * flush, see TransactionOptions.refetchable): only for events the relays they came from still hold, so
 * they are fetched again — the upstream follower and fetches (their source is the relay's URL) and the
 * benchmark. Never for what the server acknowledges or makes itself: the relay endpoint's OKs ('relay'),
 * import_events ('cache'), zap receipts it signs ('lightning') and the demo network ('demo').
 */
export function refetchableSource(source: string | undefined): boolean {
  return source === 'bench' || /^wss?:\/\//i.test(source ?? '');
}

export interface ImporterDeps {
  db: Database;
  live: EventEmitter;
  now(): number;
  /** Signature checks; the verify pool in the server, in-thread when absent. */
  verifier?: Verifier;
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

interface GroupOutcome {
  /** [input index, result] for every event of the group. */
  results: [number, ImportResult][];
  visible: NostrEvent[];
  removed: string[];
}

function result(id: string, ok: boolean, reason: string): ImportResult {
  return { id, ok, reason };
}

/**
 * The one ingestion path for relays, the cache endpoint's import_events and the demo seed.
 * Checks run in the order of protocol S §5.2; the cheap id dedupe comes before the costly
 * signature check (done by the verify pool when the server has one), and everything that survives
 * is applied in input order, in one transaction per group of verified events (at most TX_EVENTS).
 */
export function createImporter(deps: ImporterDeps): Importer {
  const seen = new IdCache(DEDUPE_CACHE_SIZE);
  const verifier = deps.verifier ?? inThreadVerifier();

  /** A group failed as a whole and is written again event by event (see writeGroup). */
  class RetryPerEvent extends Error {}
  /** A group written before its signatures were all in turned out not to be verified: it is rolled back. */
  class Unverified extends Error {}

  /**
   * Writes one verified group in one transaction. Database failures are rare, so the group is first
   * written without a savepoint per event (each costs statements and a statement journal); if any event
   * fails the whole transaction is rolled back and the group is written again with a savepoint per
   * event, so one event's failure still costs only that event (and PostgreSQL, which refuses every
   * statement after an error, gets its savepoints).
   * The first attempt is pipelined: on PostgreSQL the derived-table writes go out without waiting for
   * their answers (only reads wait), which cuts ~35 round trips per event to ~7. A failure there shows
   * at a later read or at the flush, not at its own event, so it too sends the group to the retry,
   * which waits for every statement and pins the failure on its event.
   */
  async function writeGroup(
    group: { index: number; event: NostrEvent }[],
    now: number,
    refetchable: boolean,
    verifiedBeforeCommit?: () => boolean,
  ): Promise<GroupOutcome | null> {
    const attempt = (perEvent: boolean) =>
      deps.db.transaction(async (tx) => {
        const out: GroupOutcome = { results: [], visible: [], removed: [] };
        let known: Awaited<ReturnType<typeof arrivalsOf>> = [];
        if (!perEvent) {
          try {
            const events = group.map((g) => g.event);
            // Both reads go out in one write to the socket (see bindPipelined).
            let stored: NostrEvent[];
            [known, stored] = await Promise.all([arrivalsOf(tx, events), readGroupFacts(tx, events)]);
            await readGroupAhead(tx, events, stored);
          } catch {
            throw new RetryPerEvent();
          }
        }
        for (const [j, { index, event }] of group.entries()) {
          if (!perEvent) {
            let outcome: Awaited<ReturnType<typeof applyEvent>>;
            try {
              outcome = await applyEvent(tx, event, now, known[j]);
            } catch {
              throw new RetryPerEvent();
            }
            out.results.push([index, result(event.id, outcome.ok, outcome.reason)]);
            if (outcome.visible) out.visible.push(event);
            out.removed.push(...outcome.deleted);
            continue;
          }
          await tx.run('SAVEPOINT import_event');
          try {
            const outcome = await applyEvent(tx, event, now);
            await tx.run('RELEASE SAVEPOINT import_event');
            out.results.push([index, result(event.id, outcome.ok, outcome.reason)]);
            if (outcome.visible) out.visible.push(event);
            out.removed.push(...outcome.deleted);
          } catch (err) {
            await tx.run('ROLLBACK TO SAVEPOINT import_event');
            await tx.run('RELEASE SAVEPOINT import_event');
            out.results.push([index, result(event.id, false, `error: ${(err as Error).message}`)]);
          }
        }
        if (!perEvent) {
          // The writes still on the wire (see below) must all have landed before COMMIT.
          try {
            await flush(tx);
          } catch {
            throw new RetryPerEvent();
          }
        }
        if (verifiedBeforeCommit && !verifiedBeforeCommit()) throw new Unverified();
        return out;
      }, { pipelined: !perEvent, refetchable });
    try {
      try {
        return await attempt(false);
      } catch (err) {
        if (!(err instanceof RetryPerEvent)) throw err;
        return await attempt(true);
      }
    } catch (err) {
      if (err instanceof Unverified) return null;
      const message = `error: ${(err as Error).message}`;
      return { results: group.map(({ index, event }) => [index, result(event.id, false, message)]), visible: [], removed: [] };
    }
  }

  async function importEvents(events: unknown[], source?: string): Promise<ImportResult[]> {
    if (!Array.isArray(events)) return [];
    const now = deps.now();
    const refetchable = refetchableSource(source);
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

    // Dedupe before verify (S §5.2 step 2): stored ids never reach the verifier, and an id+sig pair
    // repeated within the call is checked once. Every chunk's check is started now, so the workers
    // verify ahead while earlier chunks are written.
    const toVerify: NostrEvent[] = [];
    const slotOf = new Map<string, number>();
    const slots: number[] = new Array(pending.length).fill(-1);
    pending.forEach((p, k) => {
      if (stored.has(p.event.id)) return;
      const key = p.event.id + p.event.sig;
      let slot = slotOf.get(key);
      if (slot === undefined) {
        slot = toVerify.length;
        slotOf.set(key, slot);
        toVerify.push(p.event);
      }
      slots[k] = slot;
    });
    const checks: Promise<VerifyCode[]>[] = [];
    // With verify workers a group is written while they check it, and its codes are awaited in shared
    // memory just before COMMIT (see the write loop). On PostgreSQL too since the write path got cheaper:
    // 1,508/1,603 against 1,324/1,322 verified events/s in alternating full runs (bench/RESULTS.md s12-pging).
    const shared = verifier.verifyShared && toVerify.length > 0 ? verifier.verifyShared(toVerify) : null;
    if (shared) {
      const all = shared.done.catch(() => toVerify.map((): VerifyCode => VERIFY_BAD_SIG));
      for (let i = 0; i < toVerify.length; i += VERIFY_CHUNK) checks.push(all.then((c) => c.slice(i, i + VERIFY_CHUNK)));
    }
    for (let i = shared ? toVerify.length : 0; i < toVerify.length; i += VERIFY_CHUNK) {
      const part = toVerify.slice(i, i + VERIFY_CHUNK);
      // A verifier that cannot run must reject, never wave events through.
      checks.push(verifier.verify(part).catch(() => part.map((): VerifyCode => VERIFY_BAD_SIG)));
    }
    const codes: VerifyCode[][] = [];
    const acceptedIds = new Set<string>();

    /** The checks after dedupe, in S §5.2 order; null when the event may be written (its id joins `accepted`). */
    const decide = (k: number, code: VerifyCode, accepted: Set<string>): ImportResult | null => {
      const { event } = pending[k];
      if (stored.has(event.id) || accepted.has(event.id)) return result(event.id, true, 'duplicate: already have this event');
      if (code !== VERIFY_OK) {
        return result(event.id, false, code === VERIFY_BAD_ID ? 'invalid: event id does not match its content' : 'invalid: bad signature');
      }
      accepted.add(event.id);
      if (event.created_at > now + MAX_FUTURE_SECONDS) return result(event.id, false, 'invalid: created_at is too far in the future');
      if (!isAcceptedKind(event.kind)) return result(event.id, false, `blocked: kind ${event.kind} is not accepted`);
      return null;
    };
    /** decide with the verifiers' code (its chunk's codes must be in). */
    const check = (k: number): ImportResult | null => {
      const slot = slots[k];
      const chunk = Math.floor(slot / VERIFY_CHUNK);
      const refused = decide(k, slot < 0 ? VERIFY_OK : codes[chunk][slot - chunk * VERIFY_CHUNK], acceptedIds);
      if (refused?.ok) seen.add(refused.id);
      return refused;
    };

    const removed: string[] = [];
    const visible: NostrEvent[] = [];
    // Codes land here as each chunk's check resolves, so the write loop can see which chunks are in
    // without waiting on the others.
    checks.forEach((c, i) => void c.then((got) => (codes[i] = got)));
    const verified = (k: number) => slots[k] < 0 || codes[Math.floor(slots[k] / VERIFY_CHUNK)] !== undefined;
    const absorb = (outcome: GroupOutcome) => {
      for (const [index, r] of outcome.results) {
        results[index] = r;
        if (r.ok) seen.add(r.id);
      }
      visible.push(...outcome.visible);
      removed.push(...outcome.removed);
    };
    // Written while verified: a group goes into its transaction as if every signature were good, and
    // before COMMIT the importer blocks (without yielding, so no other socket reads or writes meanwhile)
    // until the workers' codes of the group are in. All good: it commits, and the workers' time was
    // spent beside the writes instead of before them. Any bad one (or workers too slow): rolled back and
    // written again the careful way below (codes first), which the rest of the call then keeps to, so
    // invalid events cost at most one wasted write of their group.
    let speculate = shared !== null;
    let g = 0;
    while (g < pending.length) {
      if (shared && speculate) {
        const end = Math.min(pending.length, g + TX_EVENTS);
        const accepted = new Set(acceptedIds);
        const refused: ImportResult[] = [];
        const toWrite: number[] = [];
        let from = toVerify.length;
        let to = 0;
        for (let k = g; k < end; k++) {
          if (slots[k] >= 0) {
            from = Math.min(from, slots[k]);
            to = Math.max(to, slots[k] + 1);
          }
          const r = decide(k, VERIFY_OK, accepted);
          if (r) {
            results[pending[k].index] = r;
            refused.push(r);
          } else toWrite.push(k);
        }
        const allGood = () => from >= to || (shared.settled(from, to, SETTLE_WAIT_MS)?.every((c) => c === VERIFY_OK) ?? false);
        const outcome = toWrite.length === 0 ? (allGood() ? { results: [], visible: [], removed: [] } : null) : await writeGroup(toWrite.map((k) => pending[k]), now, refetchable, allGood);
        if (outcome) {
          for (const id of accepted) acceptedIds.add(id);
          for (const r of refused) if (r.ok) seen.add(r.id);
          absorb(outcome);
          g = end;
          if (g < pending.length) await new Promise<void>((resolve) => setImmediate(resolve));
          continue;
        }
        speculate = false;
      }
      // Every signature of a group is checked before BEGIN: nothing inside the transaction waits for
      // the workers (or anything else), so no other write can run on the connection while it is open.
      // The first group is what the workers have finished (at least the first chunk), so it is written
      // while the workers check the later ones: verification overlaps the writes.
      const first = slots[g];
      if (first >= 0) {
        const chunk = Math.floor(first / VERIFY_CHUNK);
        codes[chunk] ??= await checks[chunk];
      }
      // Only the call's first group is cut at what is verified so far; later ones wait for their chunks
      // (before BEGIN), since every commit rewrites the index pages it touched: more, smaller groups
      // cost more than the overlap saves once the workers lag behind (seen on a loaded machine).
      let end = g + 1;
      while (end < pending.length && end - g < TX_EVENTS) {
        if (!verified(end)) {
          if (g === 0) break;
          const chunk = Math.floor(slots[end] / VERIFY_CHUNK);
          codes[chunk] ??= await checks[chunk];
        }
        end++;
      }
      const toWrite: number[] = [];
      for (let k = g; k < end; k++) {
        const refused = check(k);
        if (refused) results[pending[k].index] = refused;
        else toWrite.push(k);
      }
      g = end;
      if (toWrite.length === 0) continue;
      const outcome = await writeGroup(toWrite.map((k) => pending[k]), now, refetchable);
      // Only a speculative write can come back without an outcome.
      if (outcome) absorb(outcome);
      // Lets the workers' answers (and other sockets) in before the next group is chosen: the
      // transaction above held the event loop from BEGIN to COMMIT.
      if (g < pending.length) await new Promise<void>((resolve) => setImmediate(resolve));
    }

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
