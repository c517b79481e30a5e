/**
 * Where the account lives between sessions: IndexedDB in the browser (SharedWorkers have no
 * localStorage), the same small interface in memory for Node tests. Records are keyed by pubkey;
 * the login (method, pubkey, secret — PIN-encrypted when a PIN is set) is one row.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { BunkerSession } from './nip46.ts';
import type { AccountRecord, SettingsRecord } from '../core/types.ts';

export interface StoredLogin {
  method: 'extension' | 'nsec' | 'npub' | 'bunker';
  pubkey: string;
  /** Hex secret, or a 'strucc-pin1:' blob when a PIN protects it. */
  secret?: string;
  /** A remote signer's session (method 'bunker'): reconnects after a reload without a new approval. */
  bunker?: BunkerSession;
}

export interface AccountStorage {
  loadLogin(): Promise<StoredLogin | undefined>;
  saveLogin(login: StoredLogin | undefined): Promise<void>;
  loadAccount(pubkey: string): Promise<AccountRecord | undefined>;
  saveAccount(record: AccountRecord): Promise<void>;
  /** Keyed by pubkey, or GUEST_SETTINGS_KEY for a visitor. */
  loadSettings(key: string): Promise<SettingsRecord | undefined>;
  saveSettings(key: string, record: SettingsRecord): Promise<void>;
}

export const GUEST_SETTINGS_KEY = 'guest';

/** Records go through structured clone on the way in and out, like IndexedDB does. */
function copy<T>(value: T): T {
  return structuredClone(value);
}

export class MemoryStorage implements AccountStorage {
  private login: StoredLogin | undefined;
  readonly accounts = new Map<string, AccountRecord>();
  readonly settings = new Map<string, SettingsRecord>();

  async loadLogin() {
    return this.login && copy(this.login);
  }
  async saveLogin(login: StoredLogin | undefined) {
    this.login = login && copy(login);
  }
  async loadAccount(pubkey: string) {
    const r = this.accounts.get(pubkey);
    return r && copy(r);
  }
  async saveAccount(record: AccountRecord) {
    this.accounts.set(record.pubkey, copy(record));
  }
  async loadSettings(key: string) {
    const r = this.settings.get(key);
    return r && copy(r);
  }
  async saveSettings(key: string, record: SettingsRecord) {
    this.settings.set(key, copy(record));
  }
}

interface StruccAccountDb extends DBSchema {
  login: { key: string; value: StoredLogin };
  accounts: { key: string; value: AccountRecord };
  settings: { key: string; value: SettingsRecord };
}

const DB_NAME = 'strucc-account';
const LOGIN_KEY = 'current';

export class IdbStorage implements AccountStorage {
  private db: Promise<IDBPDatabase<StruccAccountDb>> | undefined;

  private open(): Promise<IDBPDatabase<StruccAccountDb>> {
    this.db ??= openDB<StruccAccountDb>(DB_NAME, 1, {
      upgrade(db) {
        db.createObjectStore('login');
        db.createObjectStore('accounts', { keyPath: 'pubkey' });
        db.createObjectStore('settings');
      },
    });
    return this.db;
  }

  async loadLogin() {
    return (await this.open()).get('login', LOGIN_KEY);
  }
  async saveLogin(login: StoredLogin | undefined) {
    const db = await this.open();
    if (login) await db.put('login', login, LOGIN_KEY);
    else await db.delete('login', LOGIN_KEY);
  }
  async loadAccount(pubkey: string) {
    return (await this.open()).get('accounts', pubkey);
  }
  async saveAccount(record: AccountRecord) {
    await (await this.open()).put('accounts', record);
  }
  async loadSettings(key: string) {
    return (await this.open()).get('settings', key);
  }
  async saveSettings(key: string, record: SettingsRecord) {
    await (await this.open()).put('settings', record, key);
  }
}

/** IndexedDB where it exists (browser, SharedWorker); memory otherwise (Node, private modes without it). */
export function defaultStorage(): AccountStorage {
  return typeof indexedDB === 'undefined' ? new MemoryStorage() : new IdbStorage();
}
