import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import hu from '../locales/hu/translation.json';
import en from '../locales/en/translation.json';

// The shell's catalogue is bundled: a missing Hungarian key must fall back to English
// synchronously instead of flashing a raw key.
void i18n.use(initReactI18next).init({
  resources: { hu: { translation: hu }, en: { translation: en } },
  lng: 'hu',
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
  // Named although they are i18next's defaults: a separator the app sets itself turns off the check
  // whether each key looks like natural language (a filtered array and a regular expression per t()
  // call, among the largest costs of t() in the first render's CPU profile). Every key is a dotted path.
  keySeparator: '.',
  nsSeparator: ':',
});

type Catalogue = Record<string, unknown>;

/**
 * A screen's own namespace (locales/hu/<ns>.json and locales/en/<ns>.json), registered by the
 * screen's lazily loaded module, so its strings travel in its chunk and not in the first screen.
 */
export function registerNamespace(ns: string, catalogues: { hu: Catalogue; en: Catalogue }): void {
  if (i18n.hasResourceBundle('hu', ns)) return;
  i18n.addResourceBundle('hu', ns, catalogues.hu, true, false);
  i18n.addResourceBundle('en', ns, catalogues.en, true, false);
}

export default i18n;
