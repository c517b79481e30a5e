import { describe, expect, it } from 'vitest';
import { npubEncode, nprofileEncode } from 'nostr-tools/nip19';
import { applyList, applyPublished, defaultRecord, planChange, type Draft } from '../../../machines/accountLists.ts';
import { actionErrorKey, checkHashtag, checkWord, looksLikeKey, mutedSections, pubkeyFromInput } from '../../../src/components/moderation/muted.ts';
import { groupScopes, groupScopesPatch, parseFilterAnswer } from '../../../src/components/moderation/filters.ts';
import type { AccountRecord, NostrEvent } from '../../../core/types.ts';

const ME = 'a'.repeat(64);
const BOB = 'b'.repeat(64);
const CAROL = 'c'.repeat(64);
const NOTE = 'e'.repeat(64);

function record(patch: Partial<AccountRecord> = {}): AccountRecord {
  return { ...defaultRecord(ME), ...patch };
}

function draftOf(r: AccountRecord, action: Parameters<typeof planChange>[1]): Draft {
  const plan = planChange(r, action);
  if (plan.kind !== 'publish') throw new Error(`expected publish, got ${plan.kind}`);
  return plan.draft;
}

describe('mute list tags (muteTag / unmuteTag)', () => {
  const base = record({ muted: [BOB, CAROL], mutedTags: [['p', BOB], ['t', 'politika']], mutedSince: 100, mutedPrivate: 'cipher', mutedPrivateTags: [['p', CAROL], ['word', 'titok']] });

  it('adds a word keeping every public tag and the private part', () => {
    const d = draftOf(base, { type: 'muteTag', tag: ['word', 'reklám'] });
    expect(d.kind).toBe(10000);
    expect(d.tags).toEqual([['p', BOB], ['t', 'politika'], ['word', 'reklám']]);
    expect(d.encryptPrivate).toEqual([['p', CAROL], ['word', 'titok']]);
    expect(d.after).toBe(100);
  });

  it('ignores a tag already muted (case-insensitive for words and hashtags) and unknown tag names', () => {
    expect(planChange(base, { type: 'muteTag', tag: ['t', 'POLITIKA'] }).kind).toBe('ignored');
    expect(planChange(base, { type: 'muteTag', tag: ['word', 'Titok'] }).kind).toBe('ignored');
    expect(planChange(base, { type: 'muteTag', tag: ['x', 'y'] }).kind).toBe('ignored');
    expect(planChange(base, { type: 'unmuteTag', tag: ['word', 'nincs'] }).kind).toBe('ignored');
  });

  it('removes a hashtag, and a private word from the private part', () => {
    expect(draftOf(base, { type: 'unmuteTag', tag: ['t', 'politika'] }).tags).toEqual([['p', BOB]]);
    const d = draftOf(base, { type: 'unmuteTag', tag: ['word', 'titok'] });
    expect(d.tags).toEqual(base.mutedTags);
    expect(d.encryptPrivate).toEqual([['p', CAROL]]);
  });

  it('muting a person keeps private words (not only private people)', () => {
    const d = draftOf(base, { type: 'mute', pubkey: 'f'.repeat(64) });
    expect(d.encryptPrivate).toEqual([['p', CAROL], ['word', 'titok']]);
    const u = draftOf(base, { type: 'unmute', pubkey: CAROL });
    expect(u.encryptPrivate).toEqual([['word', 'titok']]);
  });

  it('the published list becomes the record, private tags included', () => {
    const d = draftOf(base, { type: 'muteTag', tag: ['e', NOTE] });
    const signed = { id: '1', pubkey: ME, created_at: 200, kind: 10000, tags: d.tags, content: 'x', sig: '' } as NostrEvent;
    const next = applyPublished(base, { type: 'muteTag', tag: ['e', NOTE] }, signed, d);
    expect(next.mutedTags).toContainEqual(['e', NOTE]);
    expect(next.mutedPrivateTags).toEqual([['p', CAROL], ['word', 'titok']]);
    expect(next.muted).toEqual([BOB, CAROL]);
    expect(next.mutedSince).toBe(200);
  });

  it('a fetched list without private content clears the private tags', () => {
    const next = applyList(base, 'mutes', { created_at: 300, tags: [['word', 'a']], content: '' });
    expect(next.mutedPrivateTags).toEqual([]);
  });
});

describe('subscribed mute list flags', () => {
  it('writes the scopes into the p tag when one is off, so the server applies them', () => {
    const r = record({ mutelists: [{ pubkey: ME, content: true, trending: true }, { pubkey: BOB, content: true, trending: true }] });
    const d = draftOf(r, { type: 'setMuteListFlags', pubkey: BOB, content: true, trending: false });
    expect(d.tags).toContainEqual(['p', BOB, '', '', '{"content":true,"trending":false}']);
    expect(JSON.parse(d.content)[BOB]).toEqual({ content: true, trending: false });
    const back = draftOf(r, { type: 'subscribeMuteList', pubkey: CAROL });
    expect(back.tags).toContainEqual(['p', CAROL]);
  });
});

describe('muted page input', () => {
  it('checks words and hashtags', () => {
    expect(checkWord('  két   szó ')).toEqual({ ok: true, value: 'két szó' });
    expect(checkWord('   ')).toEqual({ ok: false, error: 'empty' });
    expect(checkWord('x'.repeat(101))).toEqual({ ok: false, error: 'tooLong' });
    expect(checkHashtag('#Őszi_Tánc')).toEqual({ ok: true, value: 'őszi_tánc' });
    expect(checkHashtag('két szó')).toEqual({ ok: false, error: 'invalid' });
    expect(checkHashtag('#')).toEqual({ ok: false, error: 'empty' });
  });

  it('reads npub, nprofile and hex keys', () => {
    expect(pubkeyFromInput(npubEncode(BOB))).toBe(BOB);
    expect(pubkeyFromInput(`nostr:${nprofileEncode({ pubkey: CAROL })}`)).toBe(CAROL);
    expect(pubkeyFromInput(BOB.toUpperCase())).toBe(BOB);
    expect(pubkeyFromInput('npub1rossz')).toBeUndefined();
    expect(pubkeyFromInput('Anna')).toBeUndefined();
    expect(looksLikeKey('npub1rossz')).toBe(true);
    expect(looksLikeKey('Anna')).toBe(false);
  });

  it('splits the list into four sections with private entries', () => {
    const s = mutedSections({ muted: [BOB], mutedTags: [['p', BOB], ['word', 'Reklám'], ['t', '#spoiler'], ['e', NOTE]], mutedPrivateTags: [['word', 'reklám'], ['word', 'titok']] });
    expect(s).toEqual({ users: [BOB], words: ['Reklám', 'titok'], hashtags: ['spoiler'], threads: [NOTE] });
    expect(mutedSections(undefined).users).toEqual([]);
  });

  it('maps failures to Hungarian message keys', () => {
    expect(actionErrorKey({ ok: true })).toBeUndefined();
    expect(actionErrorKey({ ok: false, code: 'publish-failed' })).toBe('errors.publish');
    expect(actionErrorKey({ ok: false, code: 'sign-no-nsec' })).toBe('errors.noSigner');
    expect(actionErrorKey({ ok: false, code: 'whatever' })).toBe('errors.generic');
  });
});

describe('spam and nsfw filters', () => {
  it('reads scopes with or without the primal_ prefix, and none when moderation is off', () => {
    const settings = { contentModeration: [{ name: 'primal_spam', scopes: ['content', 'trending'] }, { name: 'nsfw', scopes: ['trending'] }] };
    expect(groupScopes(settings, 'spam')).toEqual({ content: true, trending: true });
    expect(groupScopes(settings, 'nsfw')).toEqual({ content: false, trending: true });
    expect(groupScopes({ ...settings, applyContentModeration: false }, 'spam')).toEqual({ content: false, trending: false });
  });

  it('patches one group and keeps the other', () => {
    const settings = { contentModeration: [{ name: 'primal_spam', scopes: ['content', 'trending'] }, { name: 'primal_nsfw', scopes: ['content'] }, { name: 'other', scopes: ['x'] }] };
    expect(groupScopesPatch(settings, 'spam', { content: false, trending: true })).toEqual({
      applyContentModeration: true,
      contentModeration: [
        { name: 'primal_spam', scopes: ['trending'] },
        { name: 'primal_nsfw', scopes: ['content'] },
        { name: 'other', scopes: ['x'] },
      ],
    });
  });

  it('words the filtering reason', () => {
    const reason = (content: unknown) => [{ kind: 10000131, content: JSON.stringify(content) }];
    expect(parseFilterAnswer([])).toEqual({ kind: 'none' });
    expect(parseFilterAnswer(reason({ action: 'block', pubkey: BOB }))).toEqual({ kind: 'list', owner: BOB });
    expect(parseFilterAnswer(reason({ action: 'block', group: 'primal_nsfw' }))).toEqual({ kind: 'group', group: 'nsfw' });
    expect(parseFilterAnswer(reason({ action: 'allow', pubkey: ME }))).toEqual({ kind: 'allowed' });
  });
});
