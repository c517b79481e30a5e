/**
 * Where the ecash wallet lives: the worker's IndexedDB (database `strucc-ecash`), one record per
 * account, never sent to any server. Proofs are bearer money, so the record is sealed: AES-GCM
 * under a random data key, and the data key itself is stored NIP-44-encrypted to the account
 * (the same way the NWC list is kept), so opening the wallet needs the account's signer —
 * a local key, a PIN-unlocked one, the extension or the remote signer — once per session.
 */
import { openDB, type IDBPDatabase } from 'idb';
import type { TokenProof } from './ecashToken.ts';
import type { EcashHistoryView } from '../core/types/ecash.ts';

export interface MintEntry {
  url: string;
  name: string;
  addedAt: number;
}

/** One line of the wallet's history: stored as the screen shows it. */
export type HistoryEntry = EcashHistoryView;

/** A token we created and gave away: its proofs count as sent until the receiver swaps them. */
export interface PendingToken {
  id: string;
  mint: string;
  amount: number;
  token: string;
  proofs: TokenProof[];
  at: number;
}

/** A token whose redeeming failed (spec §8: the list of tokens with errors), kept for a retry. */
export interface FailedToken {
  id: string;
  token: string;
  mint: string;
  amount: number;
  failure: string;
  message: string;
  at: number;
}

export interface EcashData {
  v: 1;
  mints: MintEntry[];
  /** By mint URL. */
  proofs: Record<string, TokenProof[]>;
  pending: PendingToken[];
  failed: FailedToken[];
  history: HistoryEntry[];
  /** NUT-13 seed phrase; deterministic outputs continue from `counters` (by keyset id). */
  mnemonic?: string;
  counters: Record<string, number>;
}

export const emptyEcash = (): EcashData => ({ v: 1, mints: [], proofs: {}, pending: [], failed: [], history: [], counters: {} });

export interface SealedRecord {
  v: 1;
  /** The data key, hex, NIP-44-encrypted to the account. */
  key: string;
  iv: string;
  data: string;
}

export interface EcashStore {
  load(pubkey: string): Promise<SealedRecord | undefined>;
  save(pubkey: string, record: SealedRecord): Promise<void>;
}

export class MemoryEcashStore implements EcashStore {
  readonly records = new Map<string, SealedRecord>();
  async load(pubkey: string) {
    const r = this.records.get(pubkey);
    return r && structuredClone(r);
  }
  async save(pubkey: string, record: SealedRecord) {
    this.records.set(pubkey, structuredClone(record));
  }
}

export class IdbEcashStore implements EcashStore {
  private db: Promise<IDBPDatabase> | undefined;
  private open(): Promise<IDBPDatabase> {
    this.db ??= openDB('strucc-ecash', 1, {
      upgrade(db) {
        db.createObjectStore('wallets');
      },
    });
    return this.db;
  }
  async load(pubkey: string) {
    return (await (await this.open()).get('wallets', pubkey)) as SealedRecord | undefined;
  }
  async save(pubkey: string, record: SealedRecord) {
    await (await this.open()).put('wallets', record, pubkey);
  }
}

export function defaultEcashStore(): EcashStore {
  return typeof indexedDB === 'undefined' ? new MemoryEcashStore() : new IdbEcashStore();
}

function b64(bytes: Uint8Array): string {
  // In chunks: spreading a large wallet into one call would overflow the argument stack.
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}
const unb64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const unhex = (text: string) => Uint8Array.from(text.match(/../g) ?? [], (h) => parseInt(h, 16));

async function aesKey(raw: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', raw as BufferSource, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

/** How the data key is wrapped for the account (NIP-44 to self through the signer). */
export interface KeyWrap {
  wrap(hexKey: string): Promise<string>;
  unwrap(wrapped: string): Promise<string>;
}

/** An open wallet record: the data key in memory, sealing every save under a fresh IV. */
export class Sealer {
  private constructor(
    private readonly key: CryptoKey,
    private readonly wrappedKey: string,
  ) {}

  static async create(wrap: KeyWrap): Promise<Sealer> {
    const raw = crypto.getRandomValues(new Uint8Array(32));
    return new Sealer(await aesKey(raw), await wrap.wrap(hex(raw)));
  }

  static async open(record: SealedRecord, wrap: KeyWrap): Promise<{ sealer: Sealer; data: EcashData }> {
    const sealer = new Sealer(await aesKey(unhex(await wrap.unwrap(record.key))), record.key);
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: unb64(record.iv) as BufferSource }, sealer.key, unb64(record.data) as BufferSource);
    return { sealer, data: { ...emptyEcash(), ...(JSON.parse(new TextDecoder().decode(plain)) as EcashData) } };
  }

  async seal(data: EcashData): Promise<SealedRecord> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const cipher = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, this.key, new TextEncoder().encode(JSON.stringify(data)));
    return { v: 1, key: this.wrappedKey, iv: b64(iv), data: b64(new Uint8Array(cipher)) };
  }
}
