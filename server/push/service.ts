/**
 * Sends Web Push messages for what the importer stored: a direct message to its receiver, and the
 * notifications the notification indexer derived (mentions, replies, zaps) to their recipients, as
 * far as each subscription asked for that kind of news. The indexer's gate (settings switches, mute
 * list, crowded posts) has already run, so a type switched off in settings → notifications is never
 * pushed either.
 *
 * Events are announced after their transaction commits; the listener only queues them, bounded, and
 * a drain loop does the database reads and HTTP posts, so a slow or dead push service never holds
 * up an import. A full queue drops the newest news (counted), never blocks.
 *
 * Every process answers push_subscribe and /api/info; only the leading process sends (each process
 * hears every stored event through the live bridge, and one DM must make one push). On PostgreSQL a
 * subscription may have been made through another process a moment ago, so the table is asked each
 * time instead of a list kept in memory.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import webpush from 'web-push';
import { inChunks, replaceableOf } from '../cache/data.ts';
import type { NostrEvent, ServerContext } from '../context.ts';
import { MENTIONING_KINDS } from '../ingest/notification-sources.ts';
import { isHex64 } from '../ingest/verify.ts';
import { assertPublicHost, guardedLookupFor } from '../media/guard.ts';
import { parseSettingsContent } from '../moderation/settings-store.ts';
import { vapidKeys, type VapidKeys } from './keys.ts';
import { dmMessage, initiatorOf, nameOf, notificationMessage, type PushMessage } from './messages.ts';
import { isPushType, type PushType } from './schema.ts';

/** Events waiting for the drain; beyond this, news is dropped rather than memory spent. */
export const MAX_QUEUED_EVENTS = 1000;
/** Posts in flight to push services at once. */
const PARALLEL_SENDS = 4;
const SEND_TIMEOUT_MS = 10_000;
/** How long a push service keeps a message for an offline browser. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;
/** Older news (an upstream relay's catch-up, a restored backup) is stored but not pushed. */
export const MAX_PUSH_AGE_SECONDS = 60 * 60;
/** Kinds that can make a push: DMs, zap receipts, and the posts that mention or reply. */
const PUSHING_KINDS: ReadonlySet<number> = new Set([4, 9735, ...MENTIONING_KINDS]);

export interface PushSubscriptionRow {
  endpoint: string;
  pubkey: string;
  p256dh: string;
  auth: string;
  types: PushType[];
}

export interface PushStats {
  queued: number;
  sent: number;
  failed: number;
  removed: number;
  dropped: number;
}

interface Delivery {
  sub: PushSubscriptionRow;
  message: PushMessage;
}

function parseTypes(text: string): PushType[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter(isPushType) : [];
  } catch {
    return [];
  }
}

export class PushService {
  readonly stats: PushStats = { queued: 0, sent: 0, failed: 0, removed: 0, dropped: 0 };
  /** Pubkeys with at least one subscription (SQLite: one process sees every change): most imported events concern nobody who subscribed. */
  private readonly subscribers = new Set<string>();
  private readonly queue: NostrEvent[] = [];
  private draining: Promise<void> | null = null;
  private sending = false;
  private readonly lookup: ReturnType<typeof guardedLookupFor>;
  private readonly onLive = (ev: NostrEvent) => this.enqueue(ev);

  constructor(
    private readonly ctx: ServerContext,
    readonly keys: VapidKeys,
  ) {
    this.lookup = guardedLookupFor(ctx.config.fetchPrivateAddresses);
  }

  /** The leading process sends; see the module comment. */
  async startSending(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    const rows = await this.ctx.db.all<{ pubkey: string }>('SELECT DISTINCT pubkey FROM push_subscriptions');
    for (const r of rows) this.subscribers.add(r.pubkey);
    this.ctx.live.on('event', this.onLive);
  }

  async stopSending(): Promise<void> {
    this.sending = false;
    this.ctx.live.off('event', this.onLive);
    this.queue.length = 0;
    await this.draining;
  }

  /** Resolves once every queued event has been handled (tests wait on it instead of sleeping). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Called by the subscribe and unsubscribe commands, so the listener's filter follows the table. */
  async refresh(pubkey: string): Promise<void> {
    const row = await this.ctx.db.get('SELECT 1 AS one FROM push_subscriptions WHERE pubkey = ? LIMIT 1', [pubkey]);
    if (row) this.subscribers.add(pubkey);
    else this.subscribers.delete(pubkey);
  }

  private enqueue(ev: NostrEvent): void {
    if (!this.sending || !PUSHING_KINDS.has(ev.kind)) return;
    if (ev.created_at < this.ctx.now() - MAX_PUSH_AGE_SECONDS) return;
    // One process knows every subscription at once; with several, one made elsewhere a moment ago
    // may not be in the set yet, so the drain's own query decides.
    if (!this.ctx.config.databaseUrl) {
      if (this.subscribers.size === 0) return;
      if (ev.kind === 4 && !this.subscribers.has(ev.tags.find((t) => t[0] === 'p')?.[1] ?? '')) return;
    }
    if (this.queue.length >= MAX_QUEUED_EVENTS) {
      this.stats.dropped++;
      this.log(`push: a sor megtelt (${MAX_QUEUED_EVENTS} esemény), ${ev.id} kimarad`);
      return;
    }
    this.queue.push(ev);
    this.stats.queued++;
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  private async drain(): Promise<void> {
    // Starts after the importer's own awaits have run: the announcing import returns first.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length && this.sending) {
      const ev = this.queue.shift()!;
      try {
        await this.deliverAll(await this.deliveriesFor(ev));
      } catch (err) {
        this.log('push: hiba az esemény feldolgozásakor', ev.id, err);
      }
    }
  }

  private log(...args: unknown[]): void {
    if (this.ctx.config.verbose) console.error(...args);
  }

  private async subscriptionsOf(pubkeys: string[], type: PushType): Promise<PushSubscriptionRow[]> {
    const wanted = this.ctx.config.databaseUrl ? pubkeys : pubkeys.filter((p) => this.subscribers.has(p));
    if (!wanted.length) return [];
    const rows = await inChunks(wanted, (chunk, marks) =>
      this.ctx.db.all<{ endpoint: string; pubkey: string; p256dh: string; auth: string; types: string }>(
        `SELECT endpoint, pubkey, p256dh, auth, types FROM push_subscriptions WHERE pubkey IN (${marks})`,
        chunk,
      ),
    );
    return rows.map((r) => ({ ...r, types: parseTypes(r.types) })).filter((r) => r.types.includes(type));
  }

  private async deliveriesFor(ev: NostrEvent): Promise<Delivery[]> {
    if (ev.kind === 4) return this.dmDeliveries(ev);
    const rows = await this.ctx.db.all<{ pubkey: string; content: string }>('SELECT pubkey, content FROM notifications WHERE source_id = ?', [ev.id]);
    const out: Delivery[] = [];
    for (const row of rows) {
      if (!this.ctx.config.databaseUrl && !this.subscribers.has(row.pubkey)) continue;
      let notification: Record<string, unknown>;
      try {
        notification = JSON.parse(row.content) as Record<string, unknown>;
      } catch {
        continue;
      }
      const probe = notificationMessage(notification, ev, '');
      if (!probe) continue;
      const subs = await this.subscriptionsOf([row.pubkey], probe.type);
      if (!subs.length) continue;
      const message = notificationMessage(notification, ev, await nameOf(this.ctx.db, initiatorOf(notification, ev)))!;
      for (const sub of subs) out.push({ sub, message });
    }
    return out;
  }

  /**
   * The receiver's mute list and "messages only from people I follow" (on unless switched off, as in
   * settings → notifications) decide, as they do for the unread counts.
   */
  private async dmDeliveries(ev: NostrEvent): Promise<Delivery[]> {
    const receiver = ev.tags.find((t) => t[0] === 'p')?.[1];
    if (!receiver || !isHex64(receiver) || receiver === ev.pubkey) return [];
    const subs = await this.subscriptionsOf([receiver], 'dm');
    if (!subs.length) return [];
    const mutes = (await replaceableOf(this.ctx.db, 10000, [receiver])).get(receiver);
    if (mutes?.tags.some((t) => t[0] === 'p' && t[1] === ev.pubkey)) return [];
    if (await this.followsOnly(receiver)) {
      const follows = await this.ctx.db.get('SELECT 1 AS one FROM follows WHERE pubkey = ? AND follows = ?', [receiver, ev.pubkey]);
      if (!follows) return [];
    }
    const message = dmMessage(ev.pubkey, await nameOf(this.ctx.db, ev.pubkey));
    return subs.map((sub) => ({ sub, message }));
  }

  private async followsOnly(pubkey: string): Promise<boolean> {
    const row = await this.ctx.db.get<{ event: string }>('SELECT event FROM app_settings WHERE pubkey = ?', [pubkey]);
    if (!row) return true;
    try {
      const ev = JSON.parse(row.event) as { content?: unknown };
      const settings = typeof ev.content === 'string' ? parseSettingsContent(ev.content) : undefined;
      const extra = settings?.notificationsAdditional as Record<string, unknown> | undefined;
      return extra?.only_show_dm_notifications_from_users_i_follow !== false;
    } catch {
      return true;
    }
  }

  private async deliverAll(deliveries: Delivery[]): Promise<void> {
    for (let i = 0; i < deliveries.length; i += PARALLEL_SENDS) {
      await Promise.all(deliveries.slice(i, i + PARALLEL_SENDS).map((d) => this.deliver(d)));
    }
  }

  private async deliver({ sub, message }: Delivery): Promise<void> {
    try {
      const status = await this.post(sub, JSON.stringify(message));
      if (status === 404 || status === 410) {
        // The browser unsubscribed or the subscription expired: it will never take a message again.
        await this.ctx.db.run('DELETE FROM push_subscriptions WHERE endpoint = ?', [sub.endpoint]);
        await this.refresh(sub.pubkey);
        this.stats.removed++;
      } else if (status >= 200 && status < 300) {
        this.stats.sent++;
      } else {
        this.stats.failed++;
        this.log(`push: ${new URL(sub.endpoint).host} válasza ${status}`);
      }
    } catch (err) {
      this.stats.failed++;
      this.log(`push: ${sub.endpoint.slice(0, 80)}:`, (err as Error).message);
    }
  }

  /**
   * web-push encrypts (aes128gcm) and signs (VAPID); the request is ours, so it goes through the same
   * private-address guard as every other outbound connection, and plain http only where private
   * addresses are allowed (a push service on the test machine).
   */
  private post(sub: PushSubscriptionRow, payload: string): Promise<number> {
    const details = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, payload, {
      vapidDetails: this.keys,
      TTL: PUSH_TTL_SECONDS,
      contentEncoding: 'aes128gcm',
      urgency: 'normal',
    });
    const url = new URL(details.endpoint);
    // IP literals never reach the lookup guard.
    const refused = assertPublicHost(url.hostname, this.ctx.config.fetchPrivateAddresses);
    if (refused) return Promise.reject(new Error(refused));
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        { method: details.method, headers: details.headers, lookup: this.lookup, timeout: SEND_TIMEOUT_MS },
        (res: IncomingMessage) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(details.body);
    });
  }
}

const services = new WeakMap<ServerContext, PushService>();

export function pushServiceOf(ctx: ServerContext): PushService | undefined {
  return services.get(ctx);
}

/** Every process: the keys, and the service the push commands update. Sending starts with leadership. */
export async function startPush(ctx: ServerContext): Promise<PushService> {
  const service = new PushService(ctx, await vapidKeys(ctx.config, ctx.db));
  services.set(ctx, service);
  return service;
}

export async function stopPush(ctx: ServerContext): Promise<void> {
  await services.get(ctx)?.stopSending();
  services.delete(ctx);
}
