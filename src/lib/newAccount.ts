/**
 * The pure half of account creation (/new) and the username rule it shares with the profile
 * editor: validation, the wizard's saved progress, and the three events published at the end.
 */
import { parseProfile } from '../../core/profile';
import type { CacheReply, NostrEvent, Profile, RelayFlags, UnsignedEvent } from '../../core/types';
import { CacheKind } from '../../core/kinds';

/** Spec §5: no accents, spaces or special characters — ASCII letters, digits, '_', '-' and '.'. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]+$/;

export type UsernameProblem = 'required' | 'invalid';

export function usernameProblem(name: string): UsernameProblem | undefined {
  if (name.trim() === '') return 'required';
  return USERNAME_PATTERN.test(name) ? undefined : 'invalid';
}

export type WizardStep = 1 | 2 | 3 | 4;

export interface ProfileFields {
  displayName: string;
  about: string;
  website: string;
  lud16: string;
  picture: string;
  banner: string;
}

/** What survives a reload (sessionStorage). Never the secret: the worker's login keeps that. */
export interface WizardState {
  step: WizardStep;
  username: string;
  acceptedValues: boolean;
  profile: ProfileFields;
  /** The generated account, once step 1 was passed; a reload continues only with this same key. */
  pubkey?: string;
  /** Chosen follows; undefined until the suggestions were first shown (then all are preselected). */
  follows?: string[];
}

export const emptyProfileFields = (): ProfileFields => ({ displayName: '', about: '', website: '', lud16: '', picture: '', banner: '' });

export const initialWizard = (): WizardState => ({
  step: 1,
  username: '',
  acceptedValues: false,
  profile: emptyProfileFields(),
});

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const HEX64 = /^[0-9a-f]{64}$/;

/** Saved progress back into a state; anything damaged or foreign falls back to a fresh start. */
export function parseWizard(text: string | null): WizardState {
  const fresh = initialWizard();
  if (!text) return fresh;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fresh;
  }
  if (typeof raw !== 'object' || raw === null) return fresh;
  const r = raw as Record<string, unknown>;
  const p = (typeof r.profile === 'object' && r.profile !== null ? r.profile : {}) as Record<string, unknown>;
  const pubkey = str(r.pubkey);
  const step = [1, 2, 3, 4].includes(r.step as number) ? (r.step as WizardStep) : 1;
  const state: WizardState = {
    // Steps after the first need the generated key.
    step: HEX64.test(pubkey) ? step : 1,
    username: str(r.username),
    acceptedValues: r.acceptedValues === true,
    profile: {
      displayName: str(p.displayName),
      about: str(p.about),
      website: str(p.website),
      lud16: str(p.lud16),
      picture: str(p.picture),
      banner: str(p.banner),
    },
  };
  if (HEX64.test(pubkey)) state.pubkey = pubkey;
  if (Array.isArray(r.follows)) state.follows = r.follows.filter((f): f is string => typeof f === 'string' && HEX64.test(f));
  return state;
}

/** Kind-0 content: the username, plus only the fields that were filled in. */
export function profileContent(username: string, fields: ProfileFields): string {
  const meta: Record<string, string> = { name: username.trim() };
  const add = (key: string, value: string) => {
    if (value.trim()) meta[key] = value.trim();
  };
  add('display_name', fields.displayName);
  // Older clients read displayName only.
  add('displayName', fields.displayName);
  add('about', fields.about);
  add('picture', fields.picture);
  add('banner', fields.banner);
  add('website', fields.website);
  add('lud16', fields.lud16);
  return JSON.stringify(meta);
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export function profileEvent(username: string, fields: ProfileFields, now = nowSeconds()): UnsignedEvent {
  return { kind: 0, tags: [], content: profileContent(username, fields), created_at: now };
}

/** Kind 3 with one p tag per chosen account, each once, never the account itself. */
export function contactListEvent(follows: string[], self: string, now = nowSeconds()): UnsignedEvent {
  const unique = [...new Set(follows)].filter((pk) => pk !== self && HEX64.test(pk));
  return { kind: 3, tags: unique.map((pk) => ['p', pk]), content: '', created_at: now };
}

/** Kind 10002 (NIP-65): a relay used both ways has no marker; one-way relays say which way. */
export function relayListEvent(relays: Record<string, RelayFlags>, now = nowSeconds()): UnsignedEvent {
  const tags: string[][] = [];
  for (const [url, flags] of Object.entries(relays)) {
    if (flags.read && flags.write) tags.push(['r', url]);
    else if (flags.read) tags.push(['r', url, 'read']);
    else if (flags.write) tags.push(['r', url, 'write']);
  }
  return { kind: 10002, tags, content: '', created_at: now };
}

export interface SuggestedGroup {
  group: string;
  members: Profile[];
}

/** SUGGESTED_USERS (10000134) groups joined with the kind 0s sent along; each person once. */
export function parseSuggestedUsers(reply: CacheReply, kind: number = CacheKind.SUGGESTED_USERS): SuggestedGroup[] {
  const profiles = new Map<string, Profile>();
  for (const e of reply.events) {
    if (e.kind === 0 && typeof e.pubkey === 'string') profiles.set(e.pubkey, parseProfile(e as unknown as NostrEvent));
  }
  const seen = new Set<string>();
  const out: SuggestedGroup[] = [];
  for (const e of reply.events) {
    if (e.kind !== kind || typeof e.content !== 'string') continue;
    let groups: unknown;
    try {
      groups = JSON.parse(e.content);
    } catch {
      continue;
    }
    if (!Array.isArray(groups)) continue;
    for (const g of groups as { group?: unknown; members?: unknown }[]) {
      if (!g || !Array.isArray(g.members)) continue;
      const members: Profile[] = [];
      for (const m of g.members as { pubkey?: unknown }[]) {
        const pk = str(m?.pubkey);
        const profile = profiles.get(pk);
        if (!profile || seen.has(pk)) continue;
        seen.add(pk);
        members.push(profile);
      }
      if (members.length) out.push({ group: str(g.group), members });
    }
  }
  return out;
}

/** The text file offered in step 4: the key with a reminder of what it is. */
export function keyFileText(nsec: string, npub: string, intro: string): string {
  return `${intro}\n\nnsec: ${nsec}\nnpub: ${npub}\n`;
}
