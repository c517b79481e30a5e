import { describe, expect, it } from 'vitest';
import {
  contactListEvent,
  emptyProfileFields,
  initialWizard,
  keyFileText,
  parseSuggestedUsers,
  parseWizard,
  profileContent,
  relayListEvent,
  usernameProblem,
} from '../../../../src/lib/newAccount';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);

describe('usernameProblem', () => {
  it('requires a name', () => {
    expect(usernameProblem('')).toBe('required');
    expect(usernameProblem('   ')).toBe('required');
  });
  it('refuses accents, spaces and special characters', () => {
    for (const bad of ['árvíztűrő', 'kis pista', 'név!', 'a@b', 'émile', 'tab\tname', 'smile🙂']) expect(usernameProblem(bad)).toBe('invalid');
  });
  it('accepts ASCII letters, digits, underscore, hyphen and dot', () => {
    for (const good of ['strucc', 'Kis_Pista', 'pista-2024', 'p.kovacs']) expect(usernameProblem(good)).toBeUndefined();
  });
});

describe('parseWizard', () => {
  it('starts fresh from nothing or from damaged text', () => {
    expect(parseWizard(null)).toEqual(initialWizard());
    expect(parseWizard('{nope')).toEqual(initialWizard());
    expect(parseWizard('42')).toEqual(initialWizard());
  });
  it('keeps typed values and a valid key', () => {
    const saved = { step: 3, username: 'pista', acceptedValues: true, pubkey: A, follows: [B, 'junk'], profile: { displayName: 'Pista', about: 'x' } };
    const state = parseWizard(JSON.stringify(saved));
    expect(state).toMatchObject({ step: 3, username: 'pista', acceptedValues: true, pubkey: A, follows: [B] });
    expect(state.profile).toEqual({ ...emptyProfileFields(), displayName: 'Pista', about: 'x' });
  });
  it('goes back to step 1 without a key, keeping what was typed', () => {
    const state = parseWizard(JSON.stringify({ step: 4, username: 'pista', pubkey: 'nothex' }));
    expect(state.step).toBe(1);
    expect(state.username).toBe('pista');
    expect(state.pubkey).toBeUndefined();
  });
  it('never carries a secret through', () => {
    const state = parseWizard(JSON.stringify({ step: 2, pubkey: A, nsec: 'nsec1secret', secret: 'ff' }));
    expect(JSON.stringify(state)).not.toContain('secret');
  });
});

describe('events', () => {
  it('kind 0 holds the username and only the filled fields', () => {
    const content = JSON.parse(profileContent(' pista ', { ...emptyProfileFields(), displayName: 'Kis Pista', picture: 'https://x/p.png', website: ' ' }));
    expect(content).toEqual({ name: 'pista', display_name: 'Kis Pista', displayName: 'Kis Pista', picture: 'https://x/p.png' });
  });
  it('kind 3 lists each chosen account once and never the account itself', () => {
    const e = contactListEvent([A, B, A, C, 'bad'], C, 100);
    expect(e).toEqual({ kind: 3, tags: [['p', A], ['p', B]], content: '', created_at: 100 });
  });
  it('kind 10002 marks one-way relays and leaves two-way ones unmarked', () => {
    const e = relayListEvent(
      {
        'wss://both.example': { read: true, write: true },
        'wss://read.example': { read: true, write: false },
        'wss://write.example': { read: false, write: true },
        'wss://off.example': { read: false, write: false },
      },
      5,
    );
    expect(e.kind).toBe(10002);
    expect(e.tags).toEqual([['r', 'wss://both.example'], ['r', 'wss://read.example', 'read'], ['r', 'wss://write.example', 'write']]);
  });
  it('the key file names both keys', () => {
    expect(keyFileText('nsec1x', 'npub1y', 'Intro')).toBe('Intro\n\nnsec: nsec1x\nnpub: npub1y\n');
  });
});

describe('parseSuggestedUsers', () => {
  const meta = (pubkey: string, name: string) => ({ kind: 0, pubkey, content: JSON.stringify({ name }), created_at: 1, id: pubkey, tags: [], sig: '' });
  it('joins the groups with their profiles, each person once, skipping unknown ones', () => {
    const groups = [
      { group: 'Legtöbben követik', members: [{ pubkey: A, name: 'a' }, { pubkey: B, name: 'b' }] },
      { group: 'Újonnan érkeztek', members: [{ pubkey: B, name: 'b' }, { pubkey: C, name: 'c' }] },
      { group: 'Üres', members: [{ pubkey: 'd'.repeat(64), name: 'd' }] },
    ];
    const reply = { events: [{ kind: 10000134, content: JSON.stringify(groups) }, meta(A, 'anna'), meta(B, 'bela'), meta(C, 'cili')] };
    const out = parseSuggestedUsers(reply);
    expect(out.map((g) => [g.group, g.members.map((m) => m.name)])).toEqual([
      ['Legtöbben követik', ['anna', 'bela']],
      ['Újonnan érkeztek', ['cili']],
    ]);
  });
  it('survives a broken payload', () => {
    expect(parseSuggestedUsers({ events: [{ kind: 10000134, content: 'nope' }] })).toEqual([]);
  });
});
