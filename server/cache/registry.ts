/**
 * The table of cache commands. Each command module contributes its handlers here; the
 * connection looks names up and never knows what a command does.
 */
import type { ServerContext } from '../context.ts';
import { Args, CommandError, type Kwargs } from './args.ts';
import type { CacheObject } from './data.ts';
import { dmCommands } from './commands/dms.ts';
import { leaderboardCommands } from './commands/leaderboards.ts';
import { membershipCommands } from './commands/membership.ts';
import { walletCommands } from '../wallet/ops.ts';
import { pushCommands } from '../push/commands.ts';
import { liveCommands } from './commands/live.ts';
import { feedCommands } from './commands/feeds.ts';
import { feedSpecCommands } from './commands/feed-specs.ts';
import { listCommands } from './commands/lists.ts';
import { mediaCommands } from './commands/media.ts';
import { catalogueCommands } from './commands/catalogue.ts';
import { moderationCommands } from './commands/moderation.ts';
import { notificationCommands } from './commands/notifications.ts';
import { scoredCommands } from './commands/scored.ts';
import { settingsCommands } from './commands/settings.ts';
import { threadCommands } from './commands/thread.ts';
import { userCommands } from './commands/users.ts';
import { searchCommands } from './commands/search.ts';
import { actionCommands } from './commands/actions.ts';
import { exploreCommands } from './commands/explore.ts';
import { explorePeopleCommands } from './commands/explore-people.ts';
import { highlightCommands } from './commands/highlights.ts';
import { profileCommands } from './commands/profile.ts';
import { readsCommands } from './commands/reads.ts';
import { zapCommands } from './commands/zaps.ts';
import { legacyCommands } from './commands/legacy.ts';
import { miscCommands } from './commands/misc.ts';
import { statsCommands } from './commands/stats.ts';
import { writeCommands } from './commands/writes.ts';

/** What a command may know about the connection it runs on. */
export interface ConnectionInfo {
  /** The first valid user_pubkey this connection sent (S §1.1). */
  userPubkey?: string;
  /** Local port the socket arrived on, for self-referencing URLs when the config says port 0. */
  localPort?: number;
}

export interface CommandEnv {
  ctx: ServerContext;
  conn: ConnectionInfo;
  /**
   * Runs another registered command on the same connection. The dispatching commands
   * (advanced_feed, feed_directive, multi_kind_*) reach the others through it, so no command
   * module imports this table (which imports them all).
   */
  run(name: string, kwargs: Kwargs): Promise<CacheObject[]>;
}

export type Command = (args: Args, env: CommandEnv) => Promise<CacheObject[]>;

/** The code that answers one kind of mega_feed_directive spec (commands/feed-specs.ts), with the outer request's args. */
export type SpecFeed = (args: Args, spec: Record<string, unknown>, env: CommandEnv) => Promise<CacheObject[]>;

export const COMMANDS: ReadonlyMap<string, Command> = new Map<string, Command>([
  ...settingsCommands,
  ...userCommands,
  ...feedCommands,
  ...feedSpecCommands,
  ...scoredCommands,
  ...threadCommands,
  ...listCommands,
  ...writeCommands,
  ...catalogueCommands,
  ...mediaCommands,
  ...moderationCommands,
  ...notificationCommands,
  ...dmCommands,
  ...searchCommands,
  ...exploreCommands,
  ...explorePeopleCommands,
  ...profileCommands,
  ...readsCommands,
  ...highlightCommands,
  ...actionCommands,
  ...zapCommands,
  ...legacyCommands,
  ...miscCommands,
  ...statsCommands,
  ...liveCommands,
  ...leaderboardCommands,
  // Also on /v1: clients (ours included) send membership_status over the cache socket.
  ...membershipCommands,
  ...walletCommands,
  ...pushCommands,
]);

/** The environment commands run in, its `run` looking names up in `commands` (the wallet socket has its own table). */
export function commandEnv(ctx: ServerContext, conn: ConnectionInfo, commands: ReadonlyMap<string, Command> = COMMANDS): CommandEnv {
  const env: CommandEnv = {
    ctx,
    conn,
    run: async (name, kwargs) => {
      const command = commands.get(name);
      if (!command) throw new CommandError('unknown api request');
      return command(new Args(kwargs), env);
    },
  };
  return env;
}

/** Commands whose overrun is reported as a partial page rather than an error (S §1.2). */
export const PARTIAL_ON_TIMEOUT = new Set(['feed', 'get_notifications']);
