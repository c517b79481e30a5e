/**
 * A seeded generator of hostile websocket frames for the fuzz test: invalid JSON, wrong types,
 * huge numbers, deep nesting, binary garbage, bad zlib, strings near and over the 512 KB frame
 * rule, unknown verbs, REQ/CLOSE/EVENT/COUNT/AUTH of every wrong shape, forged events, and every
 * registered command with adversarial arguments. The same seed gives the same frames.
 */
import { deflateSync } from 'node:zlib';
import { finalizeEvent, generateSecretKey } from 'nostr-tools/pure';
import { Rng } from '../../server/demo/rng.ts';

export type Endpoint = '/v1' | '/relay' | '/wallet' | '/upload';

export interface FuzzFrame {
  data: string | Buffer;
  binary: boolean;
  /** Set for a well-formed REQ or COUNT whose subid the server can read: it must end (EOSE/CLOSED/NOTICE). */
  tracked?: string;
}

/** The demo network's seeded generator: one PRNG in the tree, and the same frames for the same seed. */
export function prng(seed: number): () => number {
  const rng = new Rng(`fuzz/${seed}`);
  return () => rng.next();
}

const FRAME_LIMIT = 512 * 1024;
const HEX = '0123456789abcdef';

const KWARG_NAMES = [
  'pubkey', 'user_pubkey', 'event_id', 'event_ids', 'pubkeys', 'limit', 'since', 'until', 'offset', 'kind', 'kinds',
  'identifier', 'query', 'spec', 'relays', 'events', 'event_from_user', 'settings_event', 'content', 'notes', 'order',
  'directive', 'url', 'urls', 'id', 'ids', 'amount', 'amount_usd', 'currency', 'name', 'hashtag', 'topic', 'file_length',
  'offset_bytes', 'upload_id', 'sha256', 'compression', 'include_replies', 'idsonly', 'scope', 'type', 'group', 'subkey',
  '__proto__', 'constructor', 'prototype', '', 'toString',
];

/** Relay and link URLs that must never leave the machine (the server runs without FETCH_PRIVATE_ADDRESSES). */
const URLS = [
  'ws://127.0.0.1:1/', 'wss://localhost/', 'ws://[::1]:9/', 'ws://169.254.169.254/', 'http://127.0.0.1:1/x.png',
  'http://10.0.0.1/', 'javascript:alert(1)', 'data:text/html,<script>', 'ws://', 'not a url', 'file:///etc/passwd',
];

export class FuzzGenerator {
  private readonly r: () => number;
  private serial = 0;
  private readonly events: Record<string, unknown>[] = [];

  constructor(
    seed: number,
    private readonly commands: Record<Endpoint, string[]>,
  ) {
    this.r = prng(seed);
    // A few real signed events to mutate: most fuzzing is of almost-valid input.
    const rnd = prng(seed ^ 0x5eed);
    const key = generateSecretKey();
    for (let i = 0; i < 20; i++) {
      const kind = [0, 1, 3, 7, 10002, 30023, 30078, 10000135, 9735][Math.floor(rnd() * 9)];
      this.events.push(
        finalizeEvent(
          { kind: kind > 65535 ? 1 : kind, created_at: Math.floor(Date.now() / 1000) - i, tags: [['p', '0'.repeat(64)], ['d', `d${i}`]], content: `fuzz ${i}` },
          key,
        ) as unknown as Record<string, unknown>,
      );
    }
  }

  private int(n: number): number {
    return Math.floor(this.r() * n);
  }

  private pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }

  private chance(p: number): boolean {
    return this.r() < p;
  }

  private hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += HEX[this.int(16)];
    return s;
  }

  private bytes(n: number): Buffer {
    const b = Buffer.allocUnsafe(n);
    for (let i = 0; i < n; i++) b[i] = this.int(256);
    return b;
  }

  private subid(): string {
    return `z${(this.serial++).toString(36)}`;
  }

  private randomString(): string {
    switch (this.int(9)) {
      case 0:
        return '';
      case 1:
        return this.hex(64);
      case 2:
        return this.hex(this.int(130));
      case 3:
        return 'x'.repeat(this.chance(0.1) ? 20_000 : this.int(500));
      case 4:
        return '\u0000\uffff\ud800\u202e<script>alert(1)</script>';
      case 5:
        return this.pick(URLS);
      case 6:
        return `npub1${this.hex(58)}`;
      case 7:
        return JSON.stringify({ kind: 1, tags: [['e', this.hex(64)]] });
      default:
        return this.bytes(this.int(40)).toString('latin1');
    }
  }

  /** Any JSON value, biased towards the ones that break naive code. */
  value(depth = 0): unknown {
    const k = this.int(depth > 3 ? 9 : 13);
    switch (k) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.pick([0, -1, 1, 1e308, -1e308, 9007199254740993, 2 ** 31, -(2 ** 63), 0.5, 1e-320, 4294967296]);
      case 3:
        return this.int(2000) - 100;
      case 4:
      case 5:
      case 6:
        return this.randomString();
      case 7:
        return this.hex(64);
      case 8:
        return Math.floor(Date.now() / 1000) + this.int(1_000_000) - 500_000;
      case 9:
        return Array.from({ length: this.int(6) }, () => this.value(depth + 1));
      case 10:
        return Array.from({ length: this.chance(0.02) ? 5000 : this.int(50) }, () => this.hex(64));
      case 11:
        return this.kwargs(depth + 1);
      default:
        return this.mutatedEvent(depth + 1);
    }
  }

  private kwargs(depth = 0): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const n = this.int(6);
    for (let i = 0; i < n; i++) out[this.pick(KWARG_NAMES)] = this.value(depth);
    if (this.chance(0.1)) out.event_from_user = this.mutatedEvent(depth);
    return out;
  }

  /** A real event with one thing wrong (or, sometimes, nothing). */
  mutatedEvent(depth = 0): unknown {
    const e: Record<string, unknown> = { ...this.pick(this.events) };
    switch (this.int(10)) {
      case 0:
        e.sig = this.hex(128);
        break;
      case 1:
        e.content = `${String(e.content)}!`;
        break;
      case 2:
        e[this.pick(['id', 'pubkey', 'created_at', 'kind', 'tags', 'content', 'sig'])] = depth > 3 ? null : this.value(depth + 1);
        break;
      case 3:
        delete e[this.pick(['id', 'pubkey', 'created_at', 'kind', 'tags', 'content', 'sig'])];
        break;
      case 4:
        e.tags = Array.from({ length: this.chance(0.1) ? 3000 : this.int(30) }, () => ['p', this.hex(64)]);
        break;
      case 5:
        e.kind = this.pick([-1, 65536, 10000135, 1.5, 2 ** 53]);
        break;
      case 6:
        return JSON.stringify(e);
      default:
    }
    return e;
  }

  private deep(): string {
    const n = 1000 + this.int(this.chance(0.1) ? 200_000 : 10_000);
    return this.chance(0.5) ? `${'['.repeat(n)}${']'.repeat(n)}` : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
  }

  private giant(command: string): FuzzFrame {
    // Around the 512 KB rule: some just under, some just over.
    const size = FRAME_LIMIT - 2048 + this.int(4096) + (this.chance(0.2) ? 400_000 : 0);
    const sub = this.subid();
    const frame = JSON.stringify(['REQ', sub, { cache: [command, { pubkeys: ['a'.repeat(size)] }] }]);
    return { data: frame, binary: false };
  }

  private commandReq(endpoint: Endpoint): FuzzFrame {
    const sub = this.subid();
    const cmd = this.chance(0.9) ? this.pick(this.commands[endpoint]) : this.randomString().slice(0, 40);
    const shape = this.int(10);
    const kwargs: unknown = shape === 0 ? this.value() : this.kwargs();
    const filter = shape === 1 ? { cache: [cmd] } : shape === 2 ? { cache: cmd } : { cache: [cmd, kwargs] };
    const filters = this.chance(0.1) ? [filter, filter, { since: 0 }] : [filter];
    return { data: JSON.stringify(['REQ', sub, ...filters]), binary: false, tracked: sub };
  }

  private relayReq(): FuzzFrame {
    const sub = this.subid();
    const verb = this.chance(0.8) ? 'REQ' : 'COUNT';
    const filter = (): unknown => {
      if (this.chance(0.15)) return this.value();
      const f: Record<string, unknown> = {};
      if (this.chance(0.4)) f.kinds = this.chance(0.8) ? [this.int(40000)] : this.value();
      if (this.chance(0.3)) f.authors = this.chance(0.8) ? [this.hex(64)] : this.value();
      if (this.chance(0.2)) f.ids = this.chance(0.8) ? [this.hex(64)] : this.value();
      if (this.chance(0.2)) f[`#${this.pick(['e', 'p', 't', 'd', 'E', 'zz'])}`] = this.chance(0.8) ? [this.hex(64)] : this.value();
      if (this.chance(0.3)) f.limit = this.value();
      if (this.chance(0.2)) f.since = this.value();
      if (this.chance(0.2)) f.until = this.value();
      if (this.chance(0.05)) f.search = this.randomString();
      return f;
    };
    const n = this.chance(0.05) ? 30 + this.int(100) : 1 + this.int(3);
    const filters = Array.from({ length: n }, filter);
    return { data: JSON.stringify([verb, sub, ...filters]), binary: false, tracked: sub };
  }

  /** One message of a wrong shape; only the chosen one is built. */
  private shape(endpoint: Endpoint): unknown {
    const verb = this.pick(['REQ', 'CLOSE', 'EVENT', 'COUNT', 'AUTH', 'req', 'EVENTS', 'OK', 'NOTICE', '', 'x'.repeat(500)]);
    switch (this.int(10)) {
      case 0:
        return [verb];
      case 1:
        return [verb, this.value()];
      case 2:
        return [verb, this.value(), this.value()];
      case 3:
        return [verb, this.subid(), ...Array.from({ length: this.int(5) }, () => this.value())];
      case 4:
        return [this.value(), this.value()];
      case 5:
        return ['EVENT', this.mutatedEvent()];
      case 6:
        return ['EVENT', this.subid(), this.mutatedEvent()];
      case 7:
        return ['AUTH', this.mutatedEvent()];
      case 8:
        return ['CLOSE', this.chance(0.5) ? this.subid() : this.value()];
      default:
        return ['REQ', this.value(), endpoint === '/relay' ? {} : { cache: ['events', {}] }];
    }
  }

  /** The next frame for `endpoint`: mostly almost-valid requests, a few percent of each kind of garbage. */
  next(endpoint: Endpoint): FuzzFrame {
    const k = this.int(1000);
    if (k < 50) return { data: this.randomString().slice(0, 2000) || '{', binary: false };
    if (k < 90) return { data: this.bytes(this.int(3000)), binary: true };
    if (k < 120) {
      // zlib header and then garbage, or a valid stream of garbage.
      const body = this.chance(0.5) ? Buffer.concat([Buffer.from([0x78, 0x9c]), this.bytes(this.int(500))]) : deflateSync(this.bytes(this.int(2000)));
      return { data: body, binary: true };
    }
    if (k < 150) return { data: JSON.stringify(this.value()), binary: this.chance(0.2) };
    if (k < 160) return { data: this.deep(), binary: false };
    if (k < 163) return this.giant(this.pick(this.commands[endpoint]));
    if (k < 190) return { data: JSON.stringify(['REQ', this.subid(), { cache: ['x'] }]).slice(0, 10 + this.int(20)), binary: false };
    if (k < 380) return { data: JSON.stringify(this.shape(endpoint)), binary: false };
    if (endpoint === '/relay') return k < 600 ? { data: JSON.stringify(['EVENT', this.mutatedEvent()]), binary: false } : this.relayReq();
    return this.commandReq(endpoint);
  }
}
