import { afterAll, describe, expect, it } from 'vitest';
import i18n, { registerNamespace } from '../../../src/i18n';

// src/i18n.ts remembers t(key) calls without options; these are the cases where a remembered text
// could go stale.
describe('the remembered t(key)', () => {
  afterAll(async () => {
    await i18n.changeLanguage('hu');
  });

  it('looks a key up again once its namespace is added', () => {
    const t = i18n.getFixedT(null, 'cachetest');
    expect(t('greeting.hello')).toBe('greeting.hello');
    registerNamespace('cachetest', {
      hu: { greeting: { hello: 'Szia', named: 'Szia, {{name}}!' } },
      en: { greeting: { hello: 'Hello', named: 'Hello, {{name}}!' } },
    });
    expect(t('greeting.hello')).toBe('Szia');
    // A fixed t made afterwards reads the same.
    expect(i18n.getFixedT(null, 'cachetest')('greeting.hello')).toBe('Szia');
  });

  it('follows a language change', async () => {
    const t = i18n.getFixedT(null, 'cachetest');
    expect(t('greeting.hello')).toBe('Szia');
    await i18n.changeLanguage('en');
    expect(t('greeting.hello')).toBe('Hello');
    await i18n.changeLanguage('hu');
    expect(t('greeting.hello')).toBe('Szia');
  });

  it('keeps a fixed language, a key prefix and options apart', () => {
    expect(i18n.getFixedT('en', 'cachetest')('greeting.hello')).toBe('Hello');
    expect(i18n.getFixedT(null, 'cachetest')('greeting.hello')).toBe('Szia');
    expect(i18n.getFixedT(null, 'cachetest', 'greeting')('hello')).toBe('Szia');
    const t = i18n.getFixedT(null, 'cachetest');
    expect(t('greeting.named', { name: 'Anna' })).toBe('Szia, Anna!');
    expect(t('greeting.named', { name: 'Béla' })).toBe('Szia, Béla!');
  });

  it('answers the shell catalogue as i18next does', () => {
    const t = i18n.getFixedT(null, null);
    expect(t('nav.home')).toBe(i18n.t('nav.home'));
    expect(t('nav.home')).not.toBe('nav.home');
  });
});
