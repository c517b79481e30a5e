/**
 * Plain Nostr-filter search shortcuts on the cache socket (S §1.1), mapped to the cache
 * command that answers them. Kept apart from the command module so the plain-filter path
 * does not pull in the command registry.
 */
import { CommandError } from '../cache/args.ts';
import type { Filter } from '../cache/framing.ts';

/**
 * Plain-filter search shortcuts (S §1.1): `{"search":q,"kinds":[0]}` without since/until is
 * user_search (limit 10); `{"search":q}` with kinds [1] or none is search (limit 20).
 * Returns undefined for anything else, which the plain-filter path then refuses.
 */
export function plainSearchDelegate(filter: Filter): { command: string; kwargs: Record<string, unknown> } | undefined {
  if (filter.search === undefined) return undefined;
  if (typeof filter.search !== 'string') throw new CommandError('invalid search: expected a string');
  const kinds = filter.kinds;
  const only = (k: number) => Array.isArray(kinds) && kinds.length === 1 && kinds[0] === k;
  const keys = Object.keys(filter).filter((k) => k !== 'search' && k !== 'kinds');
  if (only(0) && filter.since === undefined && filter.until === undefined) {
    if (keys.some((k) => k !== 'limit')) return undefined;
    return { command: 'user_search', kwargs: { query: filter.search, limit: filter.limit ?? 10 } };
  }
  if (kinds !== undefined && !only(1)) return undefined;
  if (keys.some((k) => !['since', 'until', 'limit', 'user_pubkey'].includes(k))) return undefined;
  const kwargs: Record<string, unknown> = { query: filter.search, limit: filter.limit ?? 20 };
  for (const k of ['since', 'until', 'user_pubkey']) if (filter[k] !== undefined) kwargs[k] = filter[k];
  return { command: 'search', kwargs };
}
