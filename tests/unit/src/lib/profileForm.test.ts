import { describe, expect, it } from 'vitest';
import {
  buildProfileContent,
  buildProfileEvent,
  emptyProfileValues,
  fieldProblem,
  hasProblems,
  normaliseValues,
  parseDraft,
  parseProfileContent,
  validateProfile,
  valuesFromContent,
  type ProfileFormValues,
} from '../../../../src/lib/profileForm';

/** The LUD-01 example LNURL. */
const LNURL = 'LNURL1DP68GURN8GHJ7UM9WFMXJCM99E3K7MF0V9CXJ0M385EKVCENXC6R2C35XVUKXEFCV5MKVV34X5EKZD3EV56NYD3HXQURZEPEXEJXXEPNXSCRVWFNV9NXZCN9XQ6XYEFHVGCXXCMYXYMNSERXFQ5FNS';

const valid = (patch: Partial<ProfileFormValues> = {}): ProfileFormValues => ({
  ...emptyProfileValues(),
  displayName: 'Kovács Péter',
  name: 'kovacs_peter',
  ...patch,
});

describe('username rule (spec §5)', () => {
  it('refuses accents, spaces and special characters', () => {
    for (const name of ['Péter', 'kovács', 'árvíztűrő', 'kovacs peter', ' kovacs', 'kovacs ', 'kovacs!', 'ko$acs', 'a@b', 'név#1', 'emoji🫡', 'per/vonal']) {
      expect(fieldProblem('name', name), name).toBe('usernameChars');
    }
  });

  it('accepts plain letters, digits, dot, dash and underscore', () => {
    for (const name of ['kovacs', 'Kovacs_Peter', 'peter.kovacs', 'p-k', 'user42']) {
      expect(fieldProblem('name', name), name).toBeUndefined();
    }
  });

  it('is required', () => {
    expect(fieldProblem('name', '')).toBe('required');
    expect(fieldProblem('name', '   ')).toBe('required');
  });
});

describe('required fields', () => {
  it('display name and username must be filled in', () => {
    const problems = validateProfile(emptyProfileValues());
    expect(problems).toEqual({ displayName: 'required', name: 'required' });
    expect(validateProfile(valid({ displayName: '  ' }))).toEqual({ displayName: 'required' });
  });

  it('a complete profile has no problems', () => {
    expect(hasProblems(validateProfile(valid()))).toBe(false);
    // Display names may hold accents and spaces; only the username is restricted.
    expect(fieldProblem('displayName', 'Árvíztűrő Tükörfúrógép 🫡')).toBeUndefined();
  });
});

describe('URL and address fields', () => {
  it('picture and banner must be http(s) URLs when given', () => {
    expect(fieldProblem('picture', '')).toBeUndefined();
    expect(fieldProblem('picture', 'https://media.example.hu/a.png')).toBeUndefined();
    expect(fieldProblem('banner', 'http://127.0.0.1:8080/b.jpg')).toBeUndefined();
    expect(fieldProblem('picture', 'javascript:alert(1)')).toBe('url');
    expect(fieldProblem('picture', 'ftp://example.hu/a.png')).toBe('url');
    expect(fieldProblem('banner', 'nem egy cím')).toBe('url');
    expect(fieldProblem('banner', 'https://foo')).toBe('url');
  });

  it('a website typed without a scheme is accepted and saved with https://', () => {
    expect(fieldProblem('website', 'strucc.hu')).toBeUndefined();
    expect(normaliseValues(valid({ website: ' strucc.hu/rolam ' })).website).toBe('https://strucc.hu/rolam');
    expect(fieldProblem('website', 'http://strucc.hu')).toBeUndefined();
    expect(fieldProblem('website', 'strucc')).toBe('url');
    expect(fieldProblem('website', 'mailto:a@b.hu')).toBe('url');
  });

  it('lightning address and NIP-05 are name@domain', () => {
    expect(fieldProblem('lud16', 'peter@getalby.com')).toBeUndefined();
    expect(fieldProblem('lud16', 'peter')).toBe('lightning');
    expect(fieldProblem('lud16', 'peter@local')).toBe('lightning');
    expect(fieldProblem('nip05', '_@strucc.hu')).toBeUndefined();
    expect(fieldProblem('nip05', 'peter@strucc.hu')).toBeUndefined();
    expect(fieldProblem('nip05', 'peter strucc.hu')).toBe('nip05');
  });
});

describe('kind-0 content', () => {
  const previous = {
    name: 'regi',
    display_name: 'Régi Név',
    displayName: 'Régi Név',
    about: 'régi bemutatkozás',
    website: 'https://regi.hu',
    lud06: LNURL.toLowerCase(),
    location: 'Budapest',
    pronouns: 'ő',
    bot: false,
  };

  it('keeps fields the form does not know and replaces the ones it does', () => {
    const form = { ...valuesFromContent(previous), ...valid({ about: 'Új\nbemutatkozás', picture: 'https://m.hu/a.png', location: 'Szeged' }) };
    const content = buildProfileContent(previous, { ...form, website: 'https://regi.hu', lud16: LNURL.toLowerCase() });
    expect(content).toEqual({
      name: 'kovacs_peter',
      display_name: 'Kovács Péter',
      displayName: 'Kovács Péter',
      about: 'Új\nbemutatkozás',
      website: 'https://regi.hu',
      picture: 'https://m.hu/a.png',
      lud06: LNURL.toLowerCase(),
      location: 'Szeged',
      pronouns: 'ő',
      bot: false,
    });
  });

  it('the Lightning field takes an address (lud16) or an LNURL (lud06); emptying it removes both', () => {
    expect(fieldProblem('lud16', LNURL)).toBeUndefined();
    expect(fieldProblem('lud16', 'lnurl1xyz')).toBe('lightning');
    expect(valuesFromContent({ lud06: LNURL }).lud16).toBe(LNURL);
    expect(valuesFromContent({ lud06: LNURL, lud16: 'a@b.hu' }).lud16).toBe('a@b.hu');
    expect(valuesFromContent({ lud06: 'lnurl1regi' }).lud16).toBe('');
    const asLnurl = buildProfileContent({ lud16: 'regi@cim.hu' }, valid({ lud16: LNURL }));
    expect(asLnurl).toMatchObject({ lud06: LNURL.toLowerCase() });
    expect(asLnurl).not.toHaveProperty('lud16');
    const asAddress = buildProfileContent({ lud06: 'lnurl1abc' }, valid({ lud16: 'uj@cim.hu' }));
    expect(asAddress).toMatchObject({ lud16: 'uj@cim.hu', lud06: 'lnurl1abc' });
    const emptied = buildProfileContent({ lud06: LNURL, lud16: 'a@b.hu' }, valid());
    expect(emptied).not.toHaveProperty('lud16');
    expect(emptied).not.toHaveProperty('lud06');
    // A lud06 that is no LNURL was never in the field: it stays as another client wrote it.
    expect(buildProfileContent({ lud06: 'lnurl1regi' }, valid())).toMatchObject({ lud06: 'lnurl1regi' });
  });

  it('location is edited like the other text fields', () => {
    expect(valuesFromContent(previous).location).toBe('Budapest');
    expect(buildProfileContent(previous, { ...valuesFromContent(previous), location: '' })).not.toHaveProperty('location');
  });

  it('removes a field that was emptied and does not invent the legacy key', () => {
    const content = buildProfileContent({ name: 'x', website: 'https://a.hu' }, valid());
    expect(content).not.toHaveProperty('website');
    expect(content).not.toHaveProperty('displayName');
  });

  it('round-trips through the form values', () => {
    expect(valuesFromContent(previous)).toMatchObject({ name: 'regi', displayName: 'Régi Név', website: 'https://regi.hu' });
    expect(valuesFromContent({ displayName: 'Csak régi kulcs' }).displayName).toBe('Csak régi kulcs');
    expect(valuesFromContent(parseProfileContent('nem json'))).toEqual(emptyProfileValues());
    expect(parseProfileContent('[1,2]')).toEqual({});
  });

  it('builds a kind 0 newer than the previous one, keeping its tags', () => {
    const event = buildProfileEvent({ content: previous, tags: [['alt', 'profil']], created_at: 2000 }, valid(), 1000);
    expect(event.kind).toBe(0);
    expect(event.created_at).toBe(2001);
    expect(event.tags).toEqual([['alt', 'profil']]);
    expect(JSON.parse(event.content)).toMatchObject({ name: 'kovacs_peter', pronouns: 'ő' });
    expect(buildProfileEvent(undefined, valid(), 1000)).toMatchObject({ created_at: 1000, tags: [] });
  });
});

describe('draft', () => {
  it('reads back what was stored and ignores damage', () => {
    const values = valid({ about: 'félkész' });
    expect(parseDraft(JSON.stringify(values))).toEqual(values);
    expect(parseDraft('{')).toBeUndefined();
    expect(parseDraft(null)).toBeUndefined();
    expect(parseDraft(JSON.stringify({ name: 5 }))).toEqual(emptyProfileValues());
  });
});
