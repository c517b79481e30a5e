import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import hu from '../locales/hu/translation.json';
import en from '../locales/en/translation.json';

// Both catalogues are bundled: they are small, and a missing Hungarian key must fall back
// to English synchronously instead of flashing a raw key.
void i18n.use(initReactI18next).init({
  resources: { hu: { translation: hu }, en: { translation: en } },
  lng: 'hu',
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
});

export default i18n;
