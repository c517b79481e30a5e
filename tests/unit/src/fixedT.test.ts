import { afterAll, describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import hu from '../../../locales/hu/translation.json';
import en from '../../../locales/en/translation.json';
import i18n, { useFixedT } from '../../../src/i18n';

// The shell's components read their t through useFixedT instead of react-i18next's hook: it must
// hand out the current language's text and one shared t per language and namespace.
const seen: unknown[] = [];
function SkipLink() {
  const { t } = useFixedT();
  seen.push(t);
  return createElement('a', null, t('app.skipToContent'));
}

describe('useFixedT', () => {
  afterAll(async () => {
    await i18n.changeLanguage('hu');
  });

  it('draws the current language and shares one t per language', async () => {
    await i18n.changeLanguage('hu');
    expect(renderToString(createElement(SkipLink))).toBe(`<a>${hu.app.skipToContent}</a>`);
    renderToString(createElement(SkipLink));
    expect(seen[1]).toBe(seen[0]);
    await i18n.changeLanguage('en');
    expect(renderToString(createElement(SkipLink))).toBe(`<a>${en.app.skipToContent}</a>`);
    expect(seen[2]).not.toBe(seen[0]);
    expect(hu.app.skipToContent).not.toBe(en.app.skipToContent);
  });
});
