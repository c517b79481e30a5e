/**
 * The direct-message services (worker/dms.ts: pages and the directmsg_count subscription;
 * worker/dmsPrivate.ts: the NIP-17 inbox with NIP-44 and its ciphers), created on first need: as
 * soon as an account is signed in (its badge count must arrive at start) or a tab asks for a DM page
 * or the inbox relays. A guest's first screen only watches the badge, which is 0 without them.
 */
import type { DmService } from './dms.ts';
import type { PrivateInbox } from './dmsPrivate.ts';
import { Watchers } from './instances.ts';
import { lazyService, type LazyService } from './util/lazyService.ts';

export interface DmParts {
  dms: DmService;
  inbox: PrivateInbox;
}

/** The badge watcher this holder keeps on the real service; it never closes with a tab. */
const HOLDER_TAB = '\u0000dms';

export class LazyDms {
  private readonly service: LazyService<DmParts & { dispose(): void }>;
  private readonly counts = new Watchers<number>();
  private count = 0;
  private user: string | undefined;
  private signing = false;
  private active = true;
  private disposed = false;

  constructor(create: () => Promise<DmParts>) {
    this.service = lazyService(async () => {
      const parts = await create();
      const dispose = () => {
        parts.dms.dispose();
        parts.inbox.dispose();
      };
      if (!this.disposed) {
        parts.dms.watchCount(HOLDER_TAB, (n) => this.setCount(n), () => undefined);
        // The state the login and activity reached while the module loaded, in the order createSocial applies it.
        parts.dms.setUser(this.user);
        parts.inbox.setUser(this.user, this.signing);
        parts.dms.setActive(this.active);
      }
      return { ...parts, dispose };
    });
  }

  /** The services once loaded; undefined before. */
  private get parts(): DmParts | undefined {
    return this.service.loaded;
  }

  /** The services, loading them once (lazyService: a failed load is tried again next time). */
  load(): Promise<DmParts> {
    return this.service.get();
  }

  /** Runs `fn` on the services, loading them first when needed. */
  async use<T>(fn: (parts: DmParts) => T | Promise<T>): Promise<T> {
    return fn(this.parts ?? (await this.load()));
  }

  private setCount(n: number): void {
    this.count = n;
    this.counts.emit(n, (a, b) => a === b);
  }

  /** A new settled user: the services load for a signed-in one and follow it once loaded. */
  setUser(user: string | undefined, signing: boolean): void {
    this.user = user;
    this.signing = signing;
    if (this.parts) {
      this.parts.dms.setUser(user);
      this.parts.inbox.setUser(user, signing);
    } else if (user !== undefined) {
      void this.load().catch(() => undefined);
    }
  }

  /** The same user, whose ability to decrypt may have changed. */
  setInboxUser(user: string | undefined, signing: boolean): void {
    this.signing = signing;
    this.parts?.inbox.setUser(user, signing);
  }

  /** The count was asked unsigned and the login can sign now (before loading there is nothing to redo). */
  resubscribe(): void {
    this.parts?.dms.count.send({ type: 'RESUBSCRIBE' });
  }

  setActive(active: boolean): void {
    this.active = active;
    this.parts?.dms.setActive(active);
  }

  watchCount(tabId: string, cb: (count: number) => unknown, release: () => void): number {
    return this.counts.add(tabId, cb, release, this.count);
  }

  unwatchCount(handle: number): void {
    this.counts.remove(handle);
  }

  closeTab(tabId: string): void {
    this.counts.closeTab(tabId);
    this.parts?.dms.closeTab(tabId);
  }

  dispose(): void {
    this.disposed = true;
    this.counts.dispose();
    // Disposes the services now, or as soon as a load still under way ends.
    this.service.dispose();
  }
}
