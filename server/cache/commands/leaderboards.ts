/**
 * The premium and legend leaderboards (10000171 / 10000170). Rows come from the memberships
 * table; donated_btc is sent as a string of sats, as the reference client expects.
 */
import { CommandError } from '../args.ts';
import { profilesOf, wire, type CacheObject } from '../data.ts';
import { synthetic } from '../enrich.ts';
import type { Command } from '../registry.ts';
import { CacheKind } from '../../../core/kinds.ts';

interface MemberRow {
  pubkey: string;
  donated_sats: number;
  last_donation: number | null;
  premium_since: number | null;
  legend_since: number | null;
}

/** order_by value → column; the client pages with until/offset over that column. */
const LEGEND_ORDER: Record<string, string> = { donated_btc: 'donated_sats', last_donation: 'last_donation' };
const PREMIUM_ORDER: Record<string, string> = { premium_since: 'premium_since', index: 'premium_since' };

function leaderboard(kind: number, tiers: string[], orders: Record<string, string>, fallback: string): Command {
  return async (args, { ctx }) => {
    const orderBy = args.str('order_by', fallback);
    const column = orders[orderBy];
    if (!column) throw new CommandError(`invalid order_by: one of ${Object.keys(orders).join(', ')}`);
    const limit = args.limit(20, 100);
    const offset = args.offset();
    const until = args.optBound('until');
    const rows = await ctx.db.all<MemberRow>(
      `SELECT pubkey, donated_sats, last_donation, premium_since, legend_since FROM memberships
       WHERE tier IN (${tiers.map(() => '?').join(', ')}) AND ${column} IS NOT NULL ${until === undefined ? '' : `AND ${column} <= ?`}
       ORDER BY ${column} DESC, pubkey LIMIT ? OFFSET ?`,
      [...tiers, ...(until === undefined ? [] : [until]), limit, offset],
    );
    const board = rows.map((r, i) => ({
      index: offset + i + 1,
      pubkey: r.pubkey,
      donated_btc: String(Number(r.donated_sats)),
      last_donation: r.last_donation === null ? null : Number(r.last_donation),
      premium_since: r.premium_since === null ? null : Number(r.premium_since),
    }));
    const profiles = await profilesOf(ctx.db, board.map((r) => r.pubkey));
    const out: CacheObject[] = [synthetic(kind, board), ...wire(profiles.values())];
    return out;
  };
}

export const leaderboardCommands: [string, Command][] = [
  ['membership_legends_leaderboard', leaderboard(CacheKind.LEGEND_LEADERBOARD, ['premium-legend'], LEGEND_ORDER, 'donated_btc')],
  ['membership_premium_leaderboard', leaderboard(CacheKind.PREMIUM_LEADERBOARD, ['premium', 'premium-legend'], PREMIUM_ORDER, 'premium_since')],
];
