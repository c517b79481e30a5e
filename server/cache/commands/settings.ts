/** Static and configuration commands (S §3.9). */
import { CommandError } from '../args.ts';
import { APP_RELEASES, defaultAppSettings, HOME_FEEDS, READS_FEEDS } from '../defaults.ts';
import { synthetic } from '../enrich.ts';
import type { Command, CommandEnv } from '../registry.ts';

const KIND_APP_SETTINGS_DEFAULT = 10000103;
const KIND_DEFAULT_RELAYS = 10000124;
const KIND_APP_RELEASES = 10000138;
const KIND_READS_FEEDS = 10000152;
const KIND_HOME_FEEDS = 10000153;
const KIND_APP_SUBSETTINGS = 10000155;

const getDefaultAppSettings: Command = async (args) => {
  const client = args.str('client', 'Primal-Web App');
  return [{ kind: KIND_APP_SETTINGS_DEFAULT, tags: [['d', client]], content: JSON.stringify(defaultAppSettings()) }];
};

/** Our own relay first: with no internet it is the one relay every client can reach. */
export function defaultRelays({ ctx, conn }: CommandEnv): string[] {
  const { host, port, upstreamRelays } = ctx.config;
  const reachableHost = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const realPort = port || conn.localPort;
  const urls: string[] = [];
  if (realPort) urls.push(`ws://${reachableHost}:${realPort}/relay`);
  for (const u of upstreamRelays) if (!urls.includes(u)) urls.push(u);
  return urls;
}

const SUBSETTINGS: Record<string, unknown> = {
  'user-home-feeds': HOME_FEEDS,
  'user-reads-feeds': READS_FEEDS,
  'user-nwc': [],
};

export const settingsCommands: [string, Command][] = [
  ['get_default_app_settings', getDefaultAppSettings],
  ['get_app_releases', async () => [synthetic(KIND_APP_RELEASES, APP_RELEASES)]],
  ['get_home_feeds', async () => [synthetic(KIND_HOME_FEEDS, HOME_FEEDS)]],
  ['get_reads_feeds', async () => [synthetic(KIND_READS_FEEDS, READS_FEEDS)]],
  ['get_default_relays', async (_args, env) => [synthetic(KIND_DEFAULT_RELAYS, defaultRelays(env))]],
  [
    'get_default_app_subsettings',
    async (args) => {
      const subkey = args.str('subkey', '');
      if (!(subkey in SUBSETTINGS)) throw new CommandError('unknown subkey');
      return [synthetic(KIND_APP_SUBSETTINGS, SUBSETTINGS[subkey])];
    },
  ],
];
