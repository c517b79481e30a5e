/**
 * Settings (spec §4 Settings load, §8 settings toasts). Pure: the cache commands and IndexedDB are
 * actors the worker provides. Local edits apply at once; saving runs in its own region and keeps
 * failed parts marked unsaved, retrying later, so a flaky server never loses a change.
 */
import { assign, fromPromise, raise, setup, type SnapshotFrom } from 'xstate';
import { SETTINGS_SAVE_RETRY_MS } from '../core/config.ts';
import type { AppSettings, FeedDefinition, FeedList, SettingsAction, SettingsRecord, SettingsValues, ThemeName } from '../core/types.ts';

export const THEMES: readonly ThemeName[] = ['sunrise', 'sunset', 'midnight', 'ice'];
export const SAVE_FAILED = 'Failed to save settings';
/** The load failed: what is shown comes from this device (spec §8 "offline settings are used"). */
export const LOAD_FAILED = 'settings-offline';

export type SettingsPart = 'settings' | 'home' | 'reads';
export type SubKey = 'user-home-feeds' | 'user-reads-feeds' | 'user-nwc';

export interface SettingsContext extends SettingsValues {
  key?: string;
  canSign: boolean;
  /** A stored local record existed: its theme and animation win over the server's. */
  local: boolean;
  unsaved: SettingsPart[];
  /** The part and exact value being saved, so a newer edit is not marked saved by an older save. */
  saving?: { part: SettingsPart; value: unknown };
  restoring?: FeedList | 'zaps';
  warning?: string;
}

export type EditAction = Exclude<SettingsAction, { type: 'reload' } | { type: 'restoreDefaultFeeds' } | { type: 'restoreDefaultZaps' }>;

export type SettingsEvent =
  | { type: 'LOAD'; key?: string; canSign: boolean }
  | { type: 'EDIT'; action: EditAction }
  | { type: 'RESTORE'; what: FeedList | 'zaps' }
  | { type: 'LOADED' }
  | { type: 'SAVE' };

function missing<T, I>(name: string) {
  return fromPromise<T, I>(async () => {
    throw new Error(`settings: the ${name} actor must be provided with machine.provide()`);
  });
}

export const isTheme = (v: unknown): v is ThemeName => typeof v === 'string' && (THEMES as readonly string[]).includes(v);
const feedsKey = (list: FeedList) => (list === 'home' ? 'homeFeeds' : 'readsFeeds');
const partOf = (list: FeedList): SettingsPart => list;
const addUnsaved = (unsaved: SettingsPart[], part: SettingsPart) => (unsaved.includes(part) ? unsaved : [...unsaved, part]);

function editFeeds(feeds: FeedDefinition[], action: EditAction): FeedDefinition[] {
  switch (action.type) {
    case 'addFeed':
      if (feeds.some((f) => f.spec === action.feed.spec)) return feeds;
      return action.top ? [action.feed, ...feeds] : [...feeds, action.feed];
    case 'removeFeed':
      return feeds.filter((f) => f.spec !== action.spec);
    case 'renameFeed':
      return feeds.map((f) => (f.spec === action.spec ? { ...f, name: action.name } : f));
    case 'enableFeed':
      return feeds.map((f) => (f.spec === action.spec ? { ...f, enabled: action.enabled } : f));
    case 'moveFeed': {
      if (action.from < 0 || action.from >= feeds.length || action.to < 0 || action.to >= feeds.length) return feeds;
      const next = [...feeds];
      const [moved] = next.splice(action.from, 1);
      next.splice(action.to, 0, moved);
      return next;
    }
    default:
      return feeds;
  }
}

/** The local half of an edit; returns the context patch. */
function applyEdit(context: SettingsContext, action: EditAction): Partial<SettingsContext> {
  switch (action.type) {
    case 'setTheme':
      return isTheme(action.theme) ? { theme: action.theme, local: true } : {};
    case 'setAnimated':
      return { animated: action.animated, local: true };
    case 'updateSettings':
      return { settings: { ...context.settings, ...action.patch }, unsaved: addUnsaved(context.unsaved, 'settings') };
    default: {
      const key = feedsKey(action.list);
      const next = editFeeds(context[key], action);
      if (next === context[key]) return {};
      return { [key]: next, unsaved: addUnsaved(context.unsaved, partOf(action.list)) };
    }
  }
}

/** The zap part of the default settings (spec §3: zapDefault, zapConfig and the old numeric forms). */
function zapPart(defaults: AppSettings): AppSettings {
  const out: Record<string, unknown> = {};
  for (const k of ['zapDefault', 'zapConfig', 'defaultZapAmount', 'zapOptions']) if (defaults[k] !== undefined) out[k] = defaults[k];
  return out as AppSettings;
}

const nonEmpty = (v: unknown): v is FeedDefinition[] => Array.isArray(v) && v.length > 0;

export const settingsMachine = setup({
  types: {
    context: {} as SettingsContext,
    events: {} as SettingsEvent,
  },
  actors: {
    loadLocal: missing<SettingsRecord | undefined, { key: string }>('loadLocal'),
    fetchDefaultSettings: missing<AppSettings, void>('fetchDefaultSettings'),
    /** get_app_settings; undefined when the server holds none. */
    fetchSettings: missing<AppSettings | undefined, void>('fetchSettings'),
    fetchSubsettings: missing<unknown, { subkey: SubKey }>('fetchSubsettings'),
    /** The server's default home or reads feeds (get_home_feeds / get_reads_feeds). */
    fetchDefaultFeeds: missing<FeedDefinition[], { list: FeedList }>('fetchDefaultFeeds'),
    save: missing<void, { part: SettingsPart; value: unknown }>('save'),
  },
  delays: { saveRetry: SETTINGS_SAVE_RETRY_MS },
  guards: {
    canSign: ({ context }) => context.canSign,
    canSave: ({ context }) => context.canSign && context.unsaved.length > 0,
    nonEmptyOutput: ({ event }) => 'output' in event && nonEmpty(event.output),
  },
  actions: {
    warnLoad: assign({ warning: LOAD_FAILED }),
    /** Server values, except the parts changed here and not yet saved. */
    takeSettings: assign(({ context }, params: { settings: AppSettings | undefined }) => {
      if (!params.settings || context.unsaved.includes('settings')) return {};
      const s = params.settings;
      return {
        settings: s,
        theme: !context.local && isTheme(s.theme) ? s.theme : context.theme,
        animated: !context.local && typeof s.animated === 'boolean' ? s.animated : context.animated,
      };
    }),
    takeFeeds: assign(({ context }, params: { list: FeedList; feeds: unknown; store: boolean }) => {
      if (!nonEmpty(params.feeds) || context.unsaved.includes(partOf(params.list))) return {};
      return {
        [feedsKey(params.list)]: params.feeds,
        unsaved: params.store && context.canSign ? addUnsaved(context.unsaved, partOf(params.list)) : context.unsaved,
      };
    }),
  },
}).createMachine({
  id: 'settings',
  type: 'parallel',
  context: {
    canSign: false,
    settings: {},
    homeFeeds: [],
    readsFeeds: [],
    nwc: undefined,
    theme: 'sunrise',
    animated: true,
    local: false,
    unsaved: [],
  },
  on: {
    EDIT: { actions: [assign(({ context, event }) => applyEdit(context, event.action)), raise({ type: 'SAVE' })] },
  },
  states: {
    load: {
      initial: 'idle',
      on: {
        LOAD: {
          target: '.local',
          actions: assign(({ event }) => ({ key: event.key, canSign: event.canSign, warning: undefined })),
        },
      },
      states: {
        idle: {},
        local: {
          invoke: {
            src: 'loadLocal',
            input: ({ context }) => ({ key: context.key ?? '' }),
            onDone: [
              {
                guard: ({ event }) => event.output !== undefined,
                target: 'remote',
                actions: assign(({ event }) => ({ ...(event.output as SettingsRecord), local: true })),
              },
              { target: 'remote', actions: assign({ local: false, unsaved: [] }) },
            ],
            onError: 'remote',
          },
        },
        remote: {
          initial: 'choose',
          states: {
            choose: { always: [{ guard: 'canSign', target: 'userSettings' }, { target: 'defaultSettings' }] },
            defaultSettings: {
              invoke: {
                src: 'fetchDefaultSettings',
                onDone: { target: 'defaultHome', actions: { type: 'takeSettings', params: ({ event }) => ({ settings: event.output }) } },
                onError: '#settings.load.offline',
              },
            },
            defaultHome: {
              invoke: {
                src: 'fetchDefaultFeeds',
                input: { list: 'home' as const },
                onDone: { target: 'defaultReads', actions: { type: 'takeFeeds', params: ({ event }) => ({ list: 'home' as const, feeds: event.output, store: false }) } },
                onError: '#settings.load.offline',
              },
            },
            defaultReads: {
              invoke: {
                src: 'fetchDefaultFeeds',
                input: { list: 'reads' as const },
                onDone: { target: '#settings.load.ready', actions: { type: 'takeFeeds', params: ({ event }) => ({ list: 'reads' as const, feeds: event.output, store: false }) } },
                onError: '#settings.load.offline',
              },
            },
            userSettings: {
              invoke: {
                src: 'fetchSettings',
                onDone: { target: 'userHome', actions: { type: 'takeSettings', params: ({ event }) => ({ settings: event.output }) } },
                onError: '#settings.load.offline',
              },
            },
            userHome: {
              invoke: {
                src: 'fetchSubsettings',
                input: { subkey: 'user-home-feeds' as const },
                onDone: [
                  {
                    guard: 'nonEmptyOutput',
                    target: 'userReads',
                    actions: { type: 'takeFeeds', params: ({ event }) => ({ list: 'home' as const, feeds: event.output, store: false }) },
                  },
                  { target: 'homeDefaults' },
                ],
                onError: '#settings.load.offline',
              },
            },
            /** Spec §4: a user without home feeds gets the defaults, stored for them. */
            homeDefaults: {
              invoke: {
                src: 'fetchDefaultFeeds',
                input: { list: 'home' as const },
                onDone: { target: 'userReads', actions: { type: 'takeFeeds', params: ({ event }) => ({ list: 'home' as const, feeds: event.output, store: true }) } },
                onError: '#settings.load.offline',
              },
            },
            userReads: {
              invoke: {
                src: 'fetchSubsettings',
                input: { subkey: 'user-reads-feeds' as const },
                onDone: [
                  {
                    guard: 'nonEmptyOutput',
                    target: 'wallet',
                    actions: { type: 'takeFeeds', params: ({ event }) => ({ list: 'reads' as const, feeds: event.output, store: false }) },
                  },
                  { target: 'readsDefaults' },
                ],
                onError: '#settings.load.offline',
              },
            },
            readsDefaults: {
              invoke: {
                src: 'fetchDefaultFeeds',
                input: { list: 'reads' as const },
                onDone: { target: 'wallet', actions: { type: 'takeFeeds', params: ({ event }) => ({ list: 'reads' as const, feeds: event.output, store: true }) } },
                onError: '#settings.load.offline',
              },
            },
            wallet: {
              invoke: {
                src: 'fetchSubsettings',
                input: { subkey: 'user-nwc' as const },
                onDone: { target: '#settings.load.ready', actions: assign({ nwc: ({ event }) => event.output }) },
                onError: '#settings.load.offline',
              },
            },
          },
        },
        offline: {
          always: { target: 'ready', actions: 'warnLoad' },
        },
        ready: {
          entry: raise({ type: 'LOADED' }),
        },
      },
    },
    sync: {
      initial: 'blocked',
      on: { LOAD: '.blocked' },
      states: {
        /** Nothing is saved before the load finished: it would overwrite the server with stale values. */
        blocked: { on: { LOADED: 'idle' } },
        idle: {
          always: { guard: 'canSave', target: 'saving' },
          on: { SAVE: { guard: 'canSave', target: 'saving' } },
        },
        saving: {
          entry: assign(({ context }) => {
            const part = context.unsaved[0];
            const value = part === 'settings' ? context.settings : part === 'home' ? context.homeFeeds : context.readsFeeds;
            return { saving: { part, value } };
          }),
          invoke: {
            src: 'save',
            input: ({ context }) => context.saving ?? { part: 'settings' as const, value: context.settings },
            onDone: {
              target: 'idle',
              actions: assign(({ context }) => {
                const s = context.saving;
                if (!s) return {};
                const current = s.part === 'settings' ? context.settings : s.part === 'home' ? context.homeFeeds : context.readsFeeds;
                const unsaved = current === s.value ? context.unsaved.filter((p) => p !== s.part) : context.unsaved;
                return { unsaved, saving: undefined, warning: context.warning === SAVE_FAILED ? undefined : context.warning };
              }),
            },
            onError: { target: 'retryWait', actions: assign({ saving: undefined, warning: SAVE_FAILED }) },
          },
        },
        retryWait: {
          after: { saveRetry: 'idle' },
          on: { SAVE: 'idle' },
        },
      },
    },
    restore: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            RESTORE: [
              { guard: ({ event }) => event.what === 'zaps', target: 'zaps', actions: assign({ restoring: 'zaps' as const }) },
              { target: 'feeds', actions: assign({ restoring: ({ event }) => event.what }) },
            ],
          },
        },
        feeds: {
          invoke: {
            src: 'fetchDefaultFeeds',
            input: ({ context }) => ({ list: context.restoring === 'reads' ? ('reads' as const) : ('home' as const) }),
            onDone: {
              target: 'idle',
              actions: [
                assign(({ context, event }) => {
                  const what = context.restoring;
                  if (what === undefined || what === 'zaps' || !nonEmpty(event.output)) return { restoring: undefined };
                  return { [feedsKey(what)]: event.output, unsaved: addUnsaved(context.unsaved, partOf(what)), restoring: undefined };
                }),
                raise({ type: 'SAVE' }),
              ],
            },
            onError: { target: 'idle', actions: assign({ restoring: undefined, warning: LOAD_FAILED }) },
          },
        },
        zaps: {
          invoke: {
            src: 'fetchDefaultSettings',
            onDone: {
              target: 'idle',
              actions: [
                assign(({ context, event }) => ({
                  settings: { ...context.settings, ...zapPart(event.output) },
                  unsaved: addUnsaved(context.unsaved, 'settings'),
                  restoring: undefined,
                })),
                raise({ type: 'SAVE' }),
              ],
            },
            onError: { target: 'idle', actions: assign({ restoring: undefined, warning: LOAD_FAILED }) },
          },
        },
      },
    },
  },
});

export type SettingsMachineSnapshot = SnapshotFrom<typeof settingsMachine>;

/** The record persisted per pubkey (or guest) after every change. */
export function settingsRecordOf(context: SettingsContext): SettingsRecord {
  return {
    theme: context.theme,
    animated: context.animated,
    settings: context.settings,
    homeFeeds: context.homeFeeds,
    readsFeeds: context.readsFeeds,
    nwc: context.nwc,
    unsaved: context.unsaved,
  };
}

export function settingsStateOf(snap: SettingsMachineSnapshot): 'idle' | 'loading' | 'ready' {
  if (snap.matches({ load: 'ready' })) return 'ready';
  if (snap.matches({ load: 'idle' })) return 'idle';
  return 'loading';
}
