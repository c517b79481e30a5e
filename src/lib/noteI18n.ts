import { useSyncExternalStore } from 'react';
import i18next, { type TFunction } from 'i18next';
import hu from '../../locales/hu/note.json';
import en from '../../locales/en/note.json';
import { registerNamespace } from '../i18n';

// Note cards appear on every screen, so their namespace is registered with the shared components.
registerNamespace('note', { hu, en });

export const NOTE_NS = 'note';

const fixed = new Map<string, TFunction>();

function subscribeLanguage(changed: () => void): () => void {
  i18next.on('languageChanged', changed);
  return () => i18next.off('languageChanged', changed);
}

const language = () => i18next.language;

/**
 * useTranslation for the parts every note card draws several times over: react-i18next's hook
 * copies the whole i18next instance for each component that mounts (its CPU profile showed the
 * copies and key parsing among the first render's largest costs). Here a card's components share
 * one fixed t per language and namespace, and still re-render when the language changes.
 */
export function useCardT(ns?: string): { t: TFunction; i18n: typeof i18next } {
  const lng = useSyncExternalStore(subscribeLanguage, language, language);
  const key = `${lng}|${ns ?? ''}`;
  let t = fixed.get(key);
  if (!t) {
    t = i18next.getFixedT(null, ns ?? null);
    fixed.set(key, t);
  }
  return { t, i18n: i18next };
}
