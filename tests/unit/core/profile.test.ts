import { describe, expect, it } from 'vitest';
import { displayName, emptyProfile, parseProfile, shortNpub, toNpub } from '../../../core/profile.ts';

const PK = '532d830dffe09c13e75e8b145c825718fc12b0003f61d61e9077721c7fff93cb';
const NPUB = 'npub12vkcxr0luzwp8e673v29eqjhrr7p9vqq8asav85swaepclllj09sylpugg';

describe('profiles', () => {
  it('derives the npub from the hex pubkey', () => {
    expect(toNpub(PK)).toBe(NPUB);
    expect(emptyProfile(PK).npub).toBe(NPUB);
    expect(toNpub('not-hex')).toBe('not-hex');
  });

  it('parses kind-0 metadata, accepting display_name and displayName', () => {
    const p = parseProfile({
      pubkey: PK,
      created_at: 1700000000,
      content: JSON.stringify({ name: 'bela', display_name: 'Kovács Béla', about: 'szia', picture: 'https://x/p.png', nip05: 'bela@strucc.hu', lud16: 'bela@ln.hu', website: 'https://b.hu' }),
    });
    expect(p).toMatchObject({ pubkey: PK, npub: NPUB, name: 'bela', displayName: 'Kovács Béla', about: 'szia', picture: 'https://x/p.png', nip05: 'bela@strucc.hu', lud16: 'bela@ln.hu', website: 'https://b.hu', created_at: 1700000000 });
    expect(parseProfile({ pubkey: PK, created_at: 1, content: '{"displayName":"Régi"}' }).displayName).toBe('Régi');
  });

  it('malformed JSON yields empty fields', () => {
    for (const content of ['{broken', '', '"a string"', '[1,2]', 'null', '42']) {
      const p = parseProfile({ pubkey: PK, created_at: 5, content });
      expect(p).toEqual({ ...emptyProfile(PK), created_at: 5 });
    }
  });

  it('non-string fields become empty strings', () => {
    const p = parseProfile({ pubkey: PK, created_at: 1, content: '{"name":42,"about":{"x":1},"picture":null}' });
    expect(p.name).toBe('');
    expect(p.about).toBe('');
    expect(p.picture).toBe('');
  });

  it('display name falls back to name, then to the shortened npub', () => {
    const base = emptyProfile(PK);
    expect(displayName({ ...base, displayName: 'Béla', name: 'bela' })).toBe('Béla');
    expect(displayName({ ...base, name: 'bela' })).toBe('bela');
    expect(displayName(base)).toBe('npub12vkcxr0luz..j09sylpugg');
  });

  it('shortens an npub only when longer than 23 characters: first 15, two dots, last 10', () => {
    const n23 = 'npub1abcdefghijklmnopqr';
    expect(n23).toHaveLength(23);
    expect(shortNpub(n23)).toBe(n23);
    const n24 = `${n23}s`;
    expect(shortNpub(n24)).toBe('npub1abcdefghij..jklmnopqrs');
    expect(shortNpub(n24)).toHaveLength(27);
    expect(shortNpub('npub1short')).toBe('npub1short');
  });
});
