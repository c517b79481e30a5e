import type { NostrEvent } from '../context.ts';
import type { DemoAccount } from './accounts.ts';
import type { Rng } from './rng.ts';
import type { EventDraft, Signer } from './sign.ts';
import type { Town } from './text.ts';

/** Shared state of one generation run; the phase modules read and extend it. */

export const WINDOW_SECONDS = 30 * 24 * 3600;

export interface User {
  /** 0 is the house account; 1…N are demo users. */
  idx: number;
  account: DemoAccount;
  username: string;
  displayName: string;
  town: Town;
  /** Relative chance of being followed (power-law). */
  popularity: number;
  /** Relative chance of posting and interacting. */
  activity: number;
  topics: string[];
  follows: number[];
  followers: number[];
  /** When the account first appeared (its kind 0). */
  joinedAt: number;
}

export interface Post {
  event: NostrEvent;
  author: number;
  /** 0 for a top-level note or article, 1–5 for replies. */
  depth: number;
  topic: string;
  /** Relative chance of drawing interactions. */
  appeal: number;
  /** The thread root, for replies. */
  root?: Post;
  /** `30023:pubkey:d` for articles. */
  address?: string;
}

export interface Counts {
  users: number;
  notes: number;
  replies: number;
  quotes: number;
  reposts: number;
  reactions: number;
  zaps: number;
  articles: number;
  dmPairs: number;
  deletions: number;
}

export class Network {
  readonly users: User[] = [];
  readonly notes: Post[] = [];
  readonly replies: Post[] = [];
  readonly articles: Post[] = [];
  /** Ids that something points at; deletions avoid them so no reference dangles. */
  readonly referenced = new Set<string>();
  private readonly ids = new Set<string>();

  constructor(
    readonly rng: Rng,
    readonly now: number,
    readonly sign: Signer,
    readonly counts: Counts,
    readonly nip05Domain: string,
    readonly mediaDomain: string,
  ) {}

  get start(): number {
    return this.now - WINDOW_SECONDS;
  }

  /** Signs a draft; null when an identical event already exists (same author, time and content). */
  emit(draft: EventDraft, secretKey: Uint8Array): NostrEvent | null {
    const event = this.sign(draft, secretKey);
    if (this.ids.has(event.id)) return null;
    this.ids.add(event.id);
    return event;
  }

  /**
   * A time in the window, denser towards `now` (about a fifth in the last 24 h),
   * and thinner at night in Hungary, as real posting is.
   */
  sampleTime(rng: Rng, notBefore = this.start): number {
    const span = this.now - notBefore;
    let t = this.now;
    for (let attempt = 0; attempt < 4; attempt++) {
      t = this.now - Math.floor(span * rng.next() ** 2.2);
      const hour = Math.floor(((t + 3600) % 86400) / 3600);
      if (hour >= 7 || hour === 0 || !rng.chance(0.75)) break;
    }
    return Math.max(notBefore, Math.min(this.now, t));
  }

  /** A time strictly after `t` and not after now, typically `mean` seconds later; null if t is now. */
  after(rng: Rng, t: number, mean: number): number | null {
    const room = this.now - t;
    if (room < 1) return null;
    const delay = 1 + Math.floor(rng.exp(mean));
    return delay <= room ? t + delay : t + 1 + rng.int(room);
  }
}
