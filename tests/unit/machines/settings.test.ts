import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { LOAD_FAILED, SAVE_FAILED, settingsMachine, settingsRecordOf, settingsStateOf, type SettingsPart, type SubKey } from '../../../machines/settings.ts';
import { SETTINGS_SAVE_RETRY_MS } from '../../../core/config.ts';
import type { SettingsRecord } from '../../../core/types.ts';
import type { AppSettings, FeedDefinition, FeedList } from '../../../core/types.ts';

const feed = (name: string, enabled = true): FeedDefinition => ({ name, description: '', spec: JSON.stringify({ id: name }), enabled });
const DEFAULT_HOME = [feed('latest'), feed('trending')];
const DEFAULT_READS = [feed('reads')];
const DEFAULTS: AppSettings = { theme: 'sunset', animated: false, zapDefault: { amount: 42, message: 'Haladjunk együtt! 🫡' }, zapOptions: [21, 420] };

interface Fakes {
  local?: SettingsRecord;
  user?: AppSettings;
  sub: Partial<Record<SubKey, unknown>>;
  fail: Set<string>;
  calls: string[];
  saved: { part: SettingsPart; value: unknown }[];
  /** get_app_settings answers after this many ms. */
  slow?: number;
}

function start(f: Fakes) {
  const step = (name: string) => {
    f.calls.push(name);
    if (f.fail.has(name)) throw new Error(`${name} failed`);
  };
  const actor = createActor(
    settingsMachine.provide({
      actors: {
        loadLocal: fromPromise(async () => f.local),
        fetchDefaultSettings: fromPromise(async () => {
          step('get_default_app_settings');
          return DEFAULTS;
        }),
        fetchSettings: fromPromise(async () => {
          step('get_app_settings');
          if (f.slow) await new Promise((r) => setTimeout(r, f.slow));
          return f.user;
        }),
        fetchSubsettings: fromPromise<unknown, { subkey: SubKey }>(async ({ input }) => {
          step(`get_app_subsettings:${input.subkey}`);
          return f.sub[input.subkey];
        }),
        fetchDefaultFeeds: fromPromise<FeedDefinition[], { list: FeedList }>(async ({ input }) => {
          step(`defaults:${input.list}`);
          return input.list === 'home' ? DEFAULT_HOME : DEFAULT_READS;
        }),
        save: fromPromise<void, { part: SettingsPart; value: unknown }>(async ({ input }) => {
          step(`save:${input.part}`);
          f.saved.push(input);
        }),
      },
    }),
  );
  actor.start();
  const ctx = () => actor.getSnapshot().context;
  return { actor, ctx, state: () => settingsStateOf(actor.getSnapshot()) };
}

const flush = () => vi.advanceTimersByTimeAsync(0);
const fakes = (over: Partial<Fakes> = {}): Fakes => ({ sub: {}, fail: new Set(), calls: [], saved: [], ...over });

describe('settings machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('no key: default settings and the default home and reads feeds, nothing saved', async () => {
    const f = fakes();
    const { actor, ctx, state } = start(f);
    expect(state()).toBe('idle');
    actor.send({ type: 'LOAD', key: 'guest', canSign: false });
    await flush();
    expect(state()).toBe('ready');
    expect(f.calls).toEqual(['get_default_app_settings', 'defaults:home', 'defaults:reads']);
    expect(ctx()).toMatchObject({ settings: DEFAULTS, homeFeeds: DEFAULT_HOME, readsFeeds: DEFAULT_READS, theme: 'sunset', animated: false });
    expect(f.saved).toEqual([]);
  });

  it('with a key: user settings, home feeds, reads feeds and wallet settings, in that order', async () => {
    const home = [feed('mine')];
    const reads = [feed('my reads')];
    const f = fakes({ user: { theme: 'midnight' }, sub: { 'user-home-feeds': home, 'user-reads-feeds': reads, 'user-nwc': [['w', 'uri']] } });
    const { actor, ctx, state } = start(f);
    actor.send({ type: 'LOAD', key: 'pk', canSign: true });
    await flush();
    expect(f.calls).toEqual([
      'get_app_settings',
      'get_app_subsettings:user-home-feeds',
      'get_app_subsettings:user-reads-feeds',
      'get_app_subsettings:user-nwc',
    ]);
    expect(state()).toBe('ready');
    expect(ctx()).toMatchObject({ homeFeeds: home, readsFeeds: reads, nwc: [['w', 'uri']], theme: 'midnight', warning: undefined });
    expect(f.saved).toEqual([]);
  });

  it('a user without home or reads feeds gets the defaults, stored with set_app_subsettings', async () => {
    const f = fakes({ user: {}, sub: { 'user-home-feeds': [], 'user-nwc': null } });
    const { actor, ctx } = start(f);
    actor.send({ type: 'LOAD', key: 'pk', canSign: true });
    await flush();
    expect(f.calls).toEqual([
      'get_app_settings',
      'get_app_subsettings:user-home-feeds',
      'defaults:home',
      'get_app_subsettings:user-reads-feeds',
      'defaults:reads',
      'get_app_subsettings:user-nwc',
      'save:home',
      'save:reads',
    ]);
    expect(f.saved).toEqual([
      { part: 'home', value: DEFAULT_HOME },
      { part: 'reads', value: DEFAULT_READS },
    ]);
    expect(ctx().unsaved).toEqual([]);
  });

  it('a failed load warns that offline settings are used and keeps the local copy', async () => {
    const local: SettingsRecord = {
      theme: 'ice',
      animated: false,
      settings: { zapOptions: [1] },
      homeFeeds: [feed('offline')],
      readsFeeds: [],
      nwc: null,
      unsaved: [],
    };
    const f = fakes({ local, fail: new Set(['get_app_settings']) });
    const { actor, ctx, state } = start(f);
    actor.send({ type: 'LOAD', key: 'pk', canSign: true });
    await flush();
    expect(state()).toBe('ready');
    expect(ctx()).toMatchObject({ warning: LOAD_FAILED, theme: 'ice', homeFeeds: [feed('offline')], settings: { zapOptions: [1] } });

    const g = fakes({ fail: new Set(['get_default_app_settings']) });
    const guest = start(g);
    guest.actor.send({ type: 'LOAD', key: 'guest', canSign: false });
    await flush();
    expect(guest.ctx().warning).toBe(LOAD_FAILED);
  });

  it('theme is forced locally among the four; it and animation stay local over the server values', async () => {
    const f = fakes({ user: { theme: 'sunset', animated: true }, sub: { 'user-home-feeds': [feed('a')], 'user-reads-feeds': [feed('b')] } });
    const { actor, ctx } = start(f);
    actor.send({ type: 'LOAD', key: 'pk', canSign: true });
    await flush();
    expect(ctx()).toMatchObject({ theme: 'sunset', animated: true });
    actor.send({ type: 'EDIT', action: { type: 'setTheme', theme: 'midnight' } });
    actor.send({ type: 'EDIT', action: { type: 'setTheme', theme: 'neon' as never } });
    actor.send({ type: 'EDIT', action: { type: 'setAnimated', animated: false } });
    expect(ctx()).toMatchObject({ theme: 'midnight', animated: false, local: true });
    // The worker keeps the record in IndexedDB; a reload reads it back before asking the server.
    f.local = settingsRecordOf(ctx());
    actor.send({ type: 'LOAD', key: 'pk', canSign: true });
    await flush();
    expect(ctx()).toMatchObject({ theme: 'midnight', animated: false });
    expect(f.saved).toEqual([]);
  });

  it('feed edits: add, remove, rename, enable, disable, reorder — each saved', async () => {
    const f = fakes({ user: {}, sub: { 'user-home-feeds': [feed('a'), feed('b')], 'user-reads-feeds': [feed('r')] } });
    const { actor, ctx } = start(f);
    actor.send({ type: 'LOAD', key: 'pk', canSign: true });
    await flush();
    const edit = async (action: Parameters<typeof actor.send>[0]) => {
      actor.send(action);
      await flush();
    };
    const spec = (n: string) => JSON.stringify({ id: n });
    await edit({ type: 'EDIT', action: { type: 'addFeed', list: 'home', feed: feed('c') } });
    await edit({ type: 'EDIT', action: { type: 'addFeed', list: 'home', feed: feed('c') } });
    await edit({ type: 'EDIT', action: { type: 'renameFeed', list: 'home', spec: spec('a'), name: 'A' } });
    await edit({ type: 'EDIT', action: { type: 'enableFeed', list: 'home', spec: spec('b'), enabled: false } });
    await edit({ type: 'EDIT', action: { type: 'moveFeed', list: 'home', from: 2, to: 0 } });
    await edit({ type: 'EDIT', action: { type: 'removeFeed', list: 'reads', spec: spec('r') } });
    await edit({ type: 'EDIT', action: { type: 'enableFeed', list: 'home', spec: spec('b'), enabled: true } });
    expect(ctx().homeFeeds.map((x) => [x.name, x.enabled])).toEqual([
      ['c', true],
      ['A', true],
      ['b', true],
    ]);
    expect(ctx().readsFeeds).toEqual([]);
    expect(f.saved.map((s) => s.part)).toEqual(['home', 'home', 'home', 'home', 'reads', 'home']);
    expect(f.saved.at(-1)?.value).toBe(ctx().homeFeeds);
    expect(ctx().unsaved).toEqual([]);
  });

  it('a failed save warns "Failed to save settings", keeps the change and retries later', async () => {
    const f = fakes({ user: {}, sub: { 'user-home-feeds': [feed('a'), feed('b')], 'user-reads-feeds': [feed('r')] } });
    const { actor, ctx } = start(f);
    actor.send({ type: 'LOAD', key: 'pk', canSign: true });
    await flush();
    f.fail.add('save:home');
    actor.send({ type: 'EDIT', action: { type: 'removeFeed', list: 'home', spec: JSON.stringify({ id: 'a' }) } });
    await flush();
    expect(ctx()).toMatchObject({ warning: SAVE_FAILED, unsaved: ['home'] });
    expect(ctx().homeFeeds.map((x) => x.name)).toEqual(['b']);
    f.fail.delete('save:home');
    await vi.advanceTimersByTimeAsync(SETTINGS_SAVE_RETRY_MS - 1);
    expect(f.saved).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(f.saved).toEqual([{ part: 'home', value: ctx().homeFeeds }]);
    expect(ctx()).toMatchObject({ warning: undefined, unsaved: [] });
  });

  it('a failed save is retried at once when asked (the cache server came back), without waiting for the delay', async () => {
    const f = fakes({ user: {}, sub: { 'user-home-feeds': [feed('a'), feed('b')], 'user-reads-feeds': [feed('r')] } });
    const { actor, ctx } = start(f);
    actor.send({ type: 'LOAD', key: 'pk', canSign: true });
    await flush();
    f.fail.add('save:settings');
    actor.send({ type: 'EDIT', action: { type: 'updateSettings', patch: { defaultZapAmount: 42 } } });
    await flush();
    expect(ctx()).toMatchObject({ warning: SAVE_FAILED, unsaved: ['settings'] });
    f.fail.delete('save:settings');
    actor.send({ type: 'SAVE' });
    await flush();
    expect(f.saved).toEqual([{ part: 'settings', value: ctx().settings }]);
    expect(ctx()).toMatchObject({ warning: undefined, unsaved: [] });
  });

  it('unsaved local changes survive a reload and win over the server copy, then get saved', async () => {
    const local: SettingsRecord = {
      theme: 'sunrise',
      animated: true,
      settings: {},
      homeFeeds: [feed('local')],
      readsFeeds: [feed('r')],
      nwc: null,
      unsaved: ['home'],
    };
    const f = fakes({ local, user: {}, sub: { 'user-home-feeds': [feed('server')], 'user-reads-feeds': [feed('r2')] } });
    const { actor, ctx } = start(f);
    actor.send({ type: 'LOAD', key: 'pk', canSign: true });
    await flush();
    expect(ctx().homeFeeds).toEqual([feed('local')]);
    expect(ctx().readsFeeds).toEqual([feed('r2')]);
    expect(f.saved).toEqual([{ part: 'home', value: [feed('local')] }]);
  });

  it('edits while the load runs are not saved until it has finished', async () => {
    const f = fakes({ user: {}, sub: { 'user-home-feeds': [feed('a')], 'user-reads-feeds': [feed('r')] }, slow: 1000 });
    const { actor, ctx } = start(f);
    actor.send({ type: 'LOAD', key: 'pk', canSign: true });
    await flush();
    actor.send({ type: 'EDIT', action: { type: 'updateSettings', patch: { animated: false } } });
    await flush();
    expect(f.saved).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(f.saved.map((s) => s.part)).toEqual(['settings']);
    expect(ctx().settings).toEqual({ animated: false });
  });

  it('restore defaults replaces the feeds, and the zap options, and saves them', async () => {
    const f = fakes({
      user: { zapOptions: [5], zapDefault: { amount: 5, message: 'x' }, theme: 'ice' },
      sub: { 'user-home-feeds': [feed('mine')], 'user-reads-feeds': [feed('r')] },
    });
    const { actor, ctx } = start(f);
    actor.send({ type: 'LOAD', key: 'pk', canSign: true });
    await flush();
    actor.send({ type: 'RESTORE', what: 'home' });
    await flush();
    expect(ctx().homeFeeds).toEqual(DEFAULT_HOME);
    actor.send({ type: 'RESTORE', what: 'zaps' });
    await flush();
    expect(ctx().settings).toMatchObject({ zapOptions: [21, 420], zapDefault: DEFAULTS.zapDefault, theme: 'ice' });
    expect(f.saved.map((s) => s.part)).toEqual(['home', 'settings']);
  });

  it('without a key, edits stay local (nothing to sign the save with)', async () => {
    const f = fakes();
    const { actor, ctx } = start(f);
    actor.send({ type: 'LOAD', key: 'guest', canSign: false });
    await flush();
    actor.send({ type: 'EDIT', action: { type: 'removeFeed', list: 'home', spec: JSON.stringify({ id: 'latest' }) } });
    await flush();
    expect(ctx().homeFeeds).toEqual([feed('trending')]);
    expect(f.saved).toEqual([]);
  });
});
