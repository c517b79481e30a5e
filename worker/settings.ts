/**
 * Runs machines/settings.ts with the worker's services: the cache commands of protocol §3.9
 * (signed with the account's key where the server wants proof) and IndexedDB for the local copy.
 */
import { createActor, fromPromise, waitFor, type Actor } from 'xstate';
import { settingsMachine, settingsRecordOf, settingsStateOf, type EditAction, type SettingsPart, type SubKey } from '../machines/settings.ts';
import { APP_SETTINGS_CLIENT } from '../core/config.ts';
import { FALLBACK_HOME_FEEDS, parseFeedList } from '../core/feedList.ts';
import type { Signer } from './signer.ts';
import { GUEST_SETTINGS_KEY, type AccountStorage } from './storage.ts';
import type { ActionResult, AppSettings, CacheObject, CacheReply, FeedDefinition, FeedList, SettingsAction, SettingsSnapshot } from '../core/types.ts';

export type CacheRequest = (command: string, payload?: Record<string, unknown>) => Promise<CacheReply>;

const SUBSETTINGS_OP: Record<SubKey, string> = { 'user-home-feeds': 'home', 'user-reads-feeds': 'reads', 'user-nwc': 'nwc' };
const PART_SUBKEY: Record<Exclude<SettingsPart, 'settings'>, SubKey> = { home: 'user-home-feeds', reads: 'user-reads-feeds' };

/** A NOTICE (unknown command, bad signature...) is a failure; an empty answer is not. */
async function ask(request: CacheRequest, command: string, payload?: Record<string, unknown>): Promise<CacheObject[]> {
  const reply = await request(command, payload);
  if (reply.notice !== undefined) throw new Error(`${command}: ${reply.notice}`);
  return reply.events;
}

function jsonContent(events: CacheObject[], kinds?: number[]): unknown {
  const obj = events.find((e) => typeof e.content === 'string' && (!kinds || kinds.includes(e.kind)));
  if (!obj || typeof obj.content !== 'string') return undefined;
  try {
    return JSON.parse(obj.content);
  } catch {
    return undefined;
  }
}

function asSettings(value: unknown): AppSettings | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as AppSettings) : undefined;
}

/** Feed lists as stored by any client: entries missing a name or spec are dropped. */
function asFeeds(value: unknown): FeedDefinition[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return parseFeedList({ events: [{ kind: 0, content: JSON.stringify(value) }] }) ?? [];
}

export interface SettingsServiceOptions {
  request: CacheRequest;
  signer: Signer;
  storage: AccountStorage;
  onChange: () => void;
}

export class SettingsService {
  readonly actor: Actor<typeof settingsMachine>;
  private writes: Promise<void> = Promise.resolve();
  private lastSaved: unknown;

  constructor(options: SettingsServiceOptions) {
    const { request, signer, storage } = options;
    const signed = (op: string, content: unknown) => signer.signRequest(op, content);
    this.actor = createActor(
      settingsMachine.provide({
        actors: {
          loadLocal: fromPromise(async ({ input }) => {
            // A reload must read what the last change wrote, not a copy from before it.
            await this.writes;
            return storage.loadSettings(input.key);
          }),
          fetchDefaultSettings: fromPromise(async () => {
            const settings = asSettings(jsonContent(await ask(request, 'get_default_app_settings', { client: APP_SETTINGS_CLIENT })));
            if (!settings) throw new Error('get_default_app_settings: no settings');
            return settings;
          }),
          fetchSettings: fromPromise(async () => {
            const event = await signed('get_app_settings', { description: 'Sync app settings' });
            return asSettings(jsonContent(await ask(request, 'get_app_settings', { event_from_user: event })));
          }),
          fetchSubsettings: fromPromise(async ({ input }) => {
            const event = await signed(`get_app_subsettings_${SUBSETTINGS_OP[input.subkey]}`, { subkey: input.subkey });
            const value = jsonContent(await ask(request, 'get_app_subsettings', { event_from_user: event }));
            return input.subkey === 'user-nwc' ? value : asFeeds(value);
          }),
          fetchDefaultFeeds: fromPromise(async ({ input }) => {
            const reply = await request(input.list === 'home' ? 'get_home_feeds' : 'get_reads_feeds');
            const feeds = parseFeedList(reply);
            if (feeds) return feeds;
            // The home page must never be empty; reads without a server list is a failed load.
            if (input.list === 'home') return FALLBACK_HOME_FEEDS.map((f) => ({ ...f }));
            throw new Error('get_reads_feeds: no feeds');
          }),
          save: fromPromise(async ({ input }) => {
            if (input.part === 'settings') {
              const event = await signed('set_app_settings', input.value);
              await ask(request, 'set_app_settings', { settings_event: event });
              return;
            }
            const subkey = PART_SUBKEY[input.part];
            const event = await signed(`set_app_subsettings_${SUBSETTINGS_OP[subkey]}`, { subkey, settings: input.value });
            await ask(request, 'set_app_subsettings', { event_from_user: event });
          }),
        },
      }),
    );
    this.actor.subscribe((snap) => {
      // Until the stored copy is read, the context holds defaults that must not overwrite it.
      if (!snap.matches({ load: 'remote' }) && !snap.matches({ load: 'ready' })) return;
      const record = settingsRecordOf(snap.context);
      const key = snap.context.key ?? GUEST_SETTINGS_KEY;
      const fingerprint = [key, record.theme, record.animated, record.settings, record.homeFeeds, record.readsFeeds, record.nwc, record.unsaved.join()];
      if (Array.isArray(this.lastSaved) && fingerprint.every((v, i) => v === (this.lastSaved as unknown[])[i])) return;
      this.lastSaved = fingerprint;
      this.writes = this.writes.then(() => storage.saveSettings(key, record)).catch(() => undefined);
    });
    this.actor.subscribe(() => options.onChange());
    this.actor.start();
  }

  /** Loads for this account (or the guest when no pubkey); the server half needs a signing key. */
  load(pubkey: string | undefined, canSign: boolean): void {
    this.actor.send({ type: 'LOAD', key: pubkey ?? GUEST_SETTINGS_KEY, canSign });
  }

  async act(action: SettingsAction): Promise<ActionResult> {
    if (action.type === 'reload') {
      const { key, canSign } = this.actor.getSnapshot().context;
      this.actor.send({ type: 'LOAD', key, canSign });
      await waitFor(this.actor, (s) => settingsStateOf(s) === 'ready');
      return this.result();
    }
    if (action.type === 'restoreDefaultFeeds' || action.type === 'restoreDefaultZaps') {
      const what: FeedList | 'zaps' = action.type === 'restoreDefaultZaps' ? 'zaps' : action.list;
      this.actor.send({ type: 'RESTORE', what });
      await waitFor(this.actor, (s) => s.matches({ restore: 'idle' }));
      return this.result();
    }
    this.actor.send({ type: 'EDIT', action: action satisfies EditAction });
    return { ok: true };
  }

  /** Retries an unsaved change now instead of after the retry delay (the cache server is back). */
  retrySave(): void {
    this.actor.send({ type: 'SAVE' });
  }

  /** Every write to IndexedDB queued so far has finished; for tests and shutdown. */
  flush(): Promise<void> {
    return this.writes;
  }

  snapshot(): SettingsSnapshot {
    const snap = this.actor.getSnapshot();
    const c = snap.context;
    const out: SettingsSnapshot = {
      state: settingsStateOf(snap),
      settings: c.settings,
      homeFeeds: c.homeFeeds,
      readsFeeds: c.readsFeeds,
      nwc: c.nwc,
      theme: c.theme,
      animated: c.animated,
    };
    if (c.warning) out.warning = c.warning;
    return out;
  }

  stop(): void {
    this.actor.stop();
  }

  private result(): ActionResult {
    const warning = this.actor.getSnapshot().context.warning;
    return warning ? { ok: false, code: warning } : { ok: true };
  }
}
