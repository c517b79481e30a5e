/** Settings, configuration and static data (S §3.9). */
import { invalidateModeration } from '../../moderation/hidden.ts';
import {
  parseSettingsContent,
  saveSettingsEvent,
  storedSettingsEvent,
  type StoredSettingsEvent,
} from '../../moderation/settings-store.ts';
import { CommandError } from '../args.ts';
import { APP_RELEASES, defaultAppSettings, HOME_FEEDS, READS_FEEDS } from '../defaults.ts';
import { synthetic } from '../enrich.ts';
import type { Command, CommandEnv } from '../registry.ts';
import { APP_CLIENT, requireSignedRequest } from '../signed.ts';
import { CacheKind } from '../../../core/kinds.ts';

export { getUserSettings } from '../../moderation/settings-store.ts';

const DEFAULT_CLIENT = APP_CLIENT;

/** The JSON object in a signed event's content. */
function jsonContent(ev: { content: string }, what: string): Record<string, unknown> {
  const parsed = parseSettingsContent(ev.content);
  if (!parsed) throw new CommandError(`invalid ${what}: content must be a JSON object`);
  return parsed;
}

const getDefaultAppSettings: Command = async (args) => {
  const client = args.str('client', DEFAULT_CLIENT);
  return [{ kind: CacheKind.DEFAULT_APP_SETTINGS, tags: [['d', client]], content: JSON.stringify(defaultAppSettings()) }];
};

/** S §3.9: with nothing stored, the defaults are stored for the user and returned as a 10000103. */
const getAppSettings: Command = async (args, env) => {
  const { ev } = await requireSignedRequest(args, env, 'get_app_settings');
  const stored = await storedSettingsEvent(env.ctx.db, ev.pubkey);
  if (stored) return [stored];
  const client = ev.tags.find((t) => t[0] === 'd' && typeof t[1] === 'string' && t[1])?.[1] ?? DEFAULT_CLIENT;
  const defaults: StoredSettingsEvent = {
    id: '0'.repeat(64),
    pubkey: '0'.repeat(64),
    sig: '0'.repeat(128),
    kind: CacheKind.DEFAULT_APP_SETTINGS,
    created_at: env.ctx.now(),
    tags: [['d', client]],
    content: JSON.stringify(defaultAppSettings()),
  };
  await saveSettingsEvent(env.ctx.db, ev.pubkey, defaults, env.ctx.now());
  invalidateModeration(ev.pubkey);
  return [defaults];
};

const getAppSettings2: Command = async (args, env) => {
  const { ev } = await requireSignedRequest(args, env, 'get_app_settings_2');
  const stored = await storedSettingsEvent(env.ctx.db, ev.pubkey);
  return stored ? [stored] : [];
};

/** Keys of the stored content that the new content lacks are kept (S §3.9), so older clients cannot drop newer settings. */
const setAppSettings: Command = async (args, env) => {
  const { ev } = await requireSignedRequest(args, env, 'set_app_settings', 'settings_event');
  const incoming = jsonContent(ev, 'settings_event');
  const old = await storedSettingsEvent(env.ctx.db, ev.pubkey);
  const merged = { ...(old ? (parseSettingsContent(old.content) ?? {}) : {}), ...incoming };
  const stored: StoredSettingsEvent = { ...ev, content: JSON.stringify(merged) };
  await saveSettingsEvent(env.ctx.db, ev.pubkey, stored, env.ctx.now());
  invalidateModeration(ev.pubkey);
  return [stored];
};

const SUBSETTINGS: Record<string, unknown> = {
  'user-home-feeds': HOME_FEEDS,
  'user-reads-feeds': READS_FEEDS,
  'user-nwc': [],
};

/** The op suffix that names each subkey (protocol C.1: get_app_subsettings_home|reads|nwc). */
const SUBKEY_OP: Record<string, string> = { 'user-home-feeds': 'home', 'user-reads-feeds': 'reads', 'user-nwc': 'nwc' };

/** The signed subkey, which must be the one the signed op names: a request for one list cannot touch another. */
function subkeyOf(content: Record<string, unknown>, op: string): string {
  const subkey = content.subkey;
  if (typeof subkey !== 'string' || !(subkey in SUBSETTINGS)) throw new CommandError('invalid subkey');
  if (!op.endsWith(`_${SUBKEY_OP[subkey]}`)) throw new CommandError(`invalid event_from_user: signed for ${op}, not for subkey ${subkey}`);
  return subkey;
}

const getAppSubsettings: Command = async (args, env) => {
  const { ev, op } = await requireSignedRequest(args, env, 'get_app_subsettings');
  const subkey = subkeyOf(jsonContent(ev, 'event_from_user'), op);
  const row = await env.ctx.db.get<{ settings: string }>('SELECT settings FROM app_subsettings WHERE pubkey = ? AND subkey = ?', [
    ev.pubkey,
    subkey,
  ]);
  return [row ? { kind: CacheKind.APP_SUBSETTINGS, content: row.settings } : synthetic(CacheKind.APP_SUBSETTINGS, SUBSETTINGS[subkey])];
};

const setAppSubsettings: Command = async (args, env) => {
  const { ev, op } = await requireSignedRequest(args, env, 'set_app_subsettings');
  const content = jsonContent(ev, 'event_from_user');
  const subkey = subkeyOf(content, op);
  if (content.settings === undefined) throw new CommandError('missing settings');
  await env.ctx.db.run(
    `INSERT INTO app_subsettings (pubkey, subkey, settings, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (pubkey, subkey) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at`,
    [ev.pubkey, subkey, JSON.stringify(content.settings), env.ctx.now()],
  );
  return [];
};

/** host:port clients can reach this server on; the config says 0.0.0.0 or port 0 in tests and containers. */
export function reachableHostPort({ ctx, conn }: CommandEnv): string | undefined {
  const { host, port } = ctx.config;
  const reachableHost = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const realPort = port || conn.localPort;
  return realPort ? `${reachableHost}:${realPort}` : undefined;
}

/** Our own relay first: with no internet it is the one relay every client can reach. */
export function defaultRelays(env: CommandEnv): string[] {
  const urls: string[] = [];
  const self = reachableHostPort(env);
  if (self) urls.push(`ws://${self}/relay`);
  for (const u of env.ctx.config.upstreamRelays) if (!urls.includes(u)) urls.push(u);
  return urls;
}

export const settingsCommands: [string, Command][] = [
  ['get_default_app_settings', getDefaultAppSettings],
  ['get_app_settings', getAppSettings],
  ['get_app_settings_2', getAppSettings2],
  ['set_app_settings', setAppSettings],
  ['get_app_subsettings', getAppSubsettings],
  ['set_app_subsettings', setAppSubsettings],
  ['get_app_releases', async () => [synthetic(CacheKind.APP_RELEASES, APP_RELEASES)]],
  ['get_home_feeds', async () => [synthetic(CacheKind.HOME_FEEDS, HOME_FEEDS)]],
  ['get_reads_feeds', async () => [synthetic(CacheKind.READS_FEEDS, READS_FEEDS)]],
  ['get_default_relays', async (_args, env) => [synthetic(CacheKind.DEFAULT_RELAYS, defaultRelays(env))]],
  [
    'get_default_app_subsettings',
    async (args) => {
      const subkey = args.str('subkey', '');
      if (!(subkey in SUBSETTINGS)) throw new CommandError('invalid subkey');
      return [synthetic(CacheKind.APP_SUBSETTINGS, SUBSETTINGS[subkey])];
    },
  ],
];
