/**
 * The server's spam and nsfw filter lists in the saved settings (spec §9: contentModeration with
 * scopes content and trending), and the answer of search_filterlist.
 */
import type { AppSettings, CacheObject } from '../../../core/types';
import { CacheKind } from '../../../core/kinds';

export const FILTER_GROUPS = ['spam', 'nsfw'] as const;
export type FilterGroup = (typeof FILTER_GROUPS)[number];

export interface Scopes {
  content: boolean;
  trending: boolean;
}

type Entry = { name: string; scopes: string[] };

/** Older settings name the groups without the primal_ prefix; both spellings are the same list. */
const isGroup = (name: string, group: FilterGroup) => name === group || name === `primal_${group}`;

export function groupScopes(settings: AppSettings, group: FilterGroup): Scopes {
  if (settings.applyContentModeration === false) return { content: false, trending: false };
  const entry = (settings.contentModeration ?? []).find((e) => isGroup(e.name, group));
  const scopes = entry?.scopes ?? [];
  return { content: scopes.includes('content'), trending: scopes.includes('trending') };
}

/** The settings patch that gives `group` these scopes and keeps what the other groups apply to. */
export function groupScopesPatch(settings: AppSettings, group: FilterGroup, scopes: Scopes): AppSettings {
  const entries: Entry[] = FILTER_GROUPS.map((g) => {
    const s = g === group ? scopes : groupScopes(settings, g);
    return { name: `primal_${g}`, scopes: (['content', 'trending'] as const).filter((k) => s[k]) };
  });
  const others = (settings.contentModeration ?? []).filter((e) => !FILTER_GROUPS.some((g) => isGroup(e.name, g)));
  return { applyContentModeration: true, contentModeration: [...entries, ...others] };
}

export type FilterAnswer =
  | { kind: 'none' }
  | { kind: 'allowed' }
  | { kind: 'list'; owner: string }
  | { kind: 'group'; group: FilterGroup };

/** search_filterlist's 10000131 FILTERING_REASON as the page words it. */
export function parseFilterAnswer(objects: CacheObject[]): FilterAnswer {
  const reason = objects.find((o) => o.kind === CacheKind.FILTERING_REASON);
  if (!reason || typeof reason.content !== 'string') return { kind: 'none' };
  let body: { action?: unknown; pubkey?: unknown; group?: unknown };
  try {
    body = JSON.parse(reason.content) as typeof body;
  } catch {
    return { kind: 'none' };
  }
  if (body.action === 'allow') return { kind: 'allowed' };
  if (body.action !== 'block') return { kind: 'none' };
  if (typeof body.group === 'string') {
    const group = FILTER_GROUPS.find((g) => isGroup(body.group as string, g));
    return group ? { kind: 'group', group } : { kind: 'none' };
  }
  return typeof body.pubkey === 'string' ? { kind: 'list', owner: body.pubkey } : { kind: 'none' };
}
