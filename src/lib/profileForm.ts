/**
 * The pure half of the profile editor (/settings/profile): the form's fields, their rules (spec §5),
 * the kind-0 content that keeps every field another client wrote, and the reload-proof draft.
 */
import { usernameProblem } from './newAccount';
import type { UnsignedEvent } from '../../core/types';

export interface ProfileFormValues {
  displayName: string;
  name: string;
  about: string;
  website: string;
  location: string;
  /** A Lightning address (LUD-16), or an LNURL (LUD-06, saved as lud06). */
  lud16: string;
  nip05: string;
  picture: string;
  banner: string;
}

export type ProfileField = keyof ProfileFormValues;

/** Field order on screen; focus goes to the first field with a problem. */
export const PROFILE_FIELDS: readonly ProfileField[] = ['displayName', 'name', 'about', 'website', 'location', 'lud16', 'nip05', 'picture', 'banner'];

/** The kind-0 JSON key of each field (NIP-01, NIP-24, NIP-05, LUD-16; location as other clients write it). */
export const CONTENT_KEYS: Record<ProfileField, string> = {
  displayName: 'display_name',
  name: 'name',
  about: 'about',
  website: 'website',
  location: 'location',
  lud16: 'lud16',
  nip05: 'nip05',
  picture: 'picture',
  banner: 'banner',
};

export type FieldProblem = 'required' | 'usernameChars' | 'url' | 'lightning' | 'nip05';
export type ProfileProblems = Partial<Record<ProfileField, FieldProblem>>;

export const emptyProfileValues = (): ProfileFormValues => ({
  displayName: '',
  name: '',
  about: '',
  website: '',
  location: '',
  lud16: '',
  nip05: '',
  picture: '',
  banner: '',
});

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A kind-0 content as an object; malformed or non-object JSON is an empty profile (spec §3). */
export function parseProfileContent(content: string | undefined): Record<string, unknown> {
  if (!content) return {};
  try {
    const parsed: unknown = JSON.parse(content);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function valuesFromContent(content: Record<string, unknown>): ProfileFormValues {
  const values = emptyProfileValues();
  for (const field of PROFILE_FIELDS) values[field] = str(content[CONTENT_KEYS[field]]);
  // Older clients wrote only displayName.
  if (!values.displayName) values.displayName = str(content.displayName);
  // A profile with only an LNURL shows it in the Lightning field (anything else there is left alone).
  if (!values.lud16 && isLnurl(str(content.lud06))) values.lud16 = str(content.lud06);
  return values;
}

const HTTP_URL = /^https?:\/\//i;
const BARE_DOMAIN = /^[^\s/@:]+\.[^\s/@:]{2,}(?:[/?#]\S*)?$/;
const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
/** A bech32 LNURL (LUD-01): the lnurl prefix, the separator 1, then the bech32 alphabet. */
const LNURL = /^lnurl1[02-9ac-hj-np-z]{20,}$/i;

export const isLnurl = (value: string): boolean => LNURL.test(value);

function isHttpUrl(value: string): boolean {
  if (!HTTP_URL.test(value)) return false;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    // A host without a dot ('https://foo') is almost always a typo, except the local machine.
    return url.hostname.includes('.') || url.hostname === 'localhost';
  } catch {
    return false;
  }
}

/** What is saved: trimmed, and a website typed without a scheme gets https://. */
export function normaliseValues(values: ProfileFormValues): ProfileFormValues {
  const out = { ...values };
  for (const field of PROFILE_FIELDS) {
    // The username keeps what was typed: a space in it is a mistake to show, not to hide.
    if (field !== 'name') out[field] = out[field].trim();
  }
  if (out.website && !HTTP_URL.test(out.website) && BARE_DOMAIN.test(out.website)) out.website = `https://${out.website}`;
  return out;
}

/** One field's problem, judged on the normalised value. */
export function fieldProblem(field: ProfileField, raw: string): FieldProblem | undefined {
  const value = field === 'name' ? raw : normaliseValues({ ...emptyProfileValues(), [field]: raw })[field];
  switch (field) {
    case 'name': {
      const problem = usernameProblem(value);
      return problem === 'required' ? 'required' : problem === 'invalid' ? 'usernameChars' : undefined;
    }
    case 'displayName':
      return value === '' ? 'required' : undefined;
    case 'website':
    case 'picture':
    case 'banner':
      return value === '' || isHttpUrl(value) ? undefined : 'url';
    case 'lud16':
      return value === '' || ADDRESS.test(value) || isLnurl(value) ? undefined : 'lightning';
    case 'nip05':
      return value === '' || ADDRESS.test(value) ? undefined : 'nip05';
    default:
      return undefined;
  }
}

export function validateProfile(values: ProfileFormValues): ProfileProblems {
  const problems: ProfileProblems = {};
  for (const field of PROFILE_FIELDS) {
    const problem = fieldProblem(field, values[field]);
    if (problem) problems[field] = problem;
  }
  return problems;
}

export const hasProblems = (problems: ProfileProblems) => Object.keys(problems).length > 0;

/**
 * The new kind-0 content: the previous object with the form's fields over it. Keys this form does
 * not know (bot, pronouns...) stay as they were; an emptied field is removed. The Lightning field
 * writes lud16 for an address and lud06 for an LNURL; emptying it removes both (a lud06 that is no
 * LNURL was never shown, so it stays).
 */
export function buildProfileContent(previous: Record<string, unknown>, values: ProfileFormValues): Record<string, unknown> {
  const clean = normaliseValues(values);
  const out: Record<string, unknown> = { ...previous };
  for (const field of PROFILE_FIELDS) {
    const key = CONTENT_KEYS[field];
    const value = field === 'name' ? clean.name.trim() : clean[field];
    if (value) out[key] = value;
    else delete out[key];
  }
  if (clean.lud16 && isLnurl(clean.lud16)) {
    out.lud06 = clean.lud16.toLowerCase();
    delete out.lud16;
  } else if (!clean.lud16 && isLnurl(str(previous.lud06))) delete out.lud06;
  // Keep the legacy key in step so no client shows the old display name.
  if ('displayName' in previous) {
    if (clean.displayName) out.displayName = clean.displayName;
    else delete out.displayName;
  }
  return out;
}

export interface PreviousProfile {
  content: Record<string, unknown>;
  tags: string[][];
  created_at: number;
}

/** The unsigned kind 0; created_at always moves past the previous one, so relays replace it. */
export function buildProfileEvent(previous: PreviousProfile | undefined, values: ProfileFormValues, now = Math.floor(Date.now() / 1000)): UnsignedEvent {
  const created_at = previous ? Math.max(now, previous.created_at + 1) : now;
  return {
    kind: 0,
    created_at,
    tags: previous ? previous.tags.map((t) => [...t]) : [],
    content: JSON.stringify(buildProfileContent(previous?.content ?? {}, values)),
  };
}

export const sameValues = (a: ProfileFormValues, b: ProfileFormValues) => PROFILE_FIELDS.every((f) => a[f] === b[f]);

/** sessionStorage key of the unsaved form, one per account. */
export const draftKey = (pubkey: string) => `strucc:profileDraft:${pubkey}`;

/** A stored draft back into form values; anything damaged is no draft. */
export function parseDraft(text: string | null): ProfileFormValues | undefined {
  if (!text) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  const values = emptyProfileValues();
  for (const field of PROFILE_FIELDS) values[field] = str(r[field]);
  return values;
}
