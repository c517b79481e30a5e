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
