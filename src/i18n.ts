import { useSyncExternalStore } from 'react';
import i18n, { type TFunction } from 'i18next';
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

type AnyT = ((key: unknown, opts?: unknown, ...rest: unknown[]) => unknown) & { lng?: string; lngs?: readonly string[]; ns?: unknown; keyPrefix?: unknown };

/**
 * t(key) without options, remembered per language, namespace and key. Each call of i18next's fixed
 * t copies the instance's whole options object and the call's options twice, works out the
 * language fallback chain and runs the interpolation and nesting expressions over the text; the
 * first render asks for the same few dozen labels (navigation, action bar) over and over. Calls
 * with options (counts, values, context) still go to i18next each time. A catalogue added or
 * removed (a screen's namespace) empties the memory, so a key that was missing is looked up again.
 */
const plain = new Map<string, unknown>();
i18n.store.on('added', () => plain.clear());
i18n.store.on('removed', () => plain.clear());

const fixedTOf = i18n.getFixedT.bind(i18n) as unknown as (lng: unknown, ns: unknown, keyPrefix?: unknown, fixedOpts?: unknown) => AnyT;
(i18n as unknown as { getFixedT: typeof fixedTOf }).getFixedT = (lng, ns, keyPrefix, fixedOpts) => {
  const fixed = fixedTOf(lng, ns, keyPrefix, fixedOpts);
  if (keyPrefix || (lng != null && typeof lng !== 'string')) return fixed;
  const scope = `${Array.isArray(ns) ? ns.join(',') : String(ns ?? '')}\u0000`;
  const t: AnyT = (key, opts, ...rest) => {
    if (typeof key !== 'string' || opts !== undefined || rest.length > 0) return fixed(key, opts, ...rest);
    const id = `${(lng as string | null | undefined) ?? i18n.language}\u0000${scope}${key}`;
    if (plain.has(id)) return plain.get(id);
    const text = fixed(key);
    plain.set(id, text);
    return text;
  };
  return Object.assign(t, { lng: fixed.lng, lngs: fixed.lngs, ns: fixed.ns, keyPrefix: fixed.keyPrefix });
};

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

const fixedByLanguage = new Map<string, TFunction>();

function subscribeLanguage(changed: () => void): () => void {
  i18n.on('languageChanged', changed);
  return () => i18n.off('languageChanged', changed);
}

const currentLanguage = () => i18n.language;

/**
 * useTranslation for the components every screen draws (the shell, its navigation, note cards):
 * react-i18next's hook copies the whole i18next instance for each component that mounts (its CPU
 * profile showed the copies and key parsing among the first render's largest costs, 4–7 ms for the
 * shell alone). Here they share one fixed t per language and namespace, and still re-render when
 * the language changes (the only event react-i18next's hook listens to by default).
 */
export function useFixedT(ns?: string): { t: TFunction; i18n: typeof i18n } {
  const lng = useSyncExternalStore(subscribeLanguage, currentLanguage, currentLanguage);
  const key = `${lng}|${ns ?? ''}`;
  let t = fixedByLanguage.get(key);
  if (!t) {
    t = i18n.getFixedT(null, ns ?? null);
    fixedByLanguage.set(key, t);
  }
  return { t, i18n };
}

export default i18n;
