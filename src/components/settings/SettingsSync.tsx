/**
 * Keeps this tab in step with the worker's settings: a theme or animation change made in another
 * tab (or loaded from the server after a sign-in or reload) applies here, and a failed settings
 * save is announced once, whichever page caused it. Mounted once in the shell.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { settingsAction, useAccount } from '../../lib/account';
import { toastError } from '../../lib/toast';
import { isTheme, setAnimated, setTheme, storedAnimated, storedTheme } from '../../theme';

/** machines/settings.ts SAVE_FAILED; not imported, so the machine stays out of the first chunk. */
const SAVE_FAILED = 'Failed to save settings';

/** What this tab shows now; localStorage is shared by the tabs, so it cannot tell. */
const shownTheme = () => document.documentElement.dataset.theme;
const shownAnimated = () => document.documentElement.dataset.animated !== 'false';

interface Seen {
  account: string;
  theme: string;
  animated: boolean;
}

export function SettingsSync() {
  const { t } = useTranslation();
  const snapshot = useAccount();
  const seen = useRef<Seen | null>(null);
  const warned = useRef(false);

  const state = snapshot?.settings.state;
  const theme = snapshot?.settings.theme;
  const animated = snapshot?.settings.animated;
  const signedIn = snapshot?.login.state === 'signedIn';
  const account = signedIn ? (snapshot?.login.pubkey ?? '') : '';
  const warning = snapshot?.settings.warning;

  useEffect(() => {
    if (state !== 'ready' || theme === undefined || animated === undefined) return;
    const previous = seen.current;
    seen.current = { account, theme, animated };
    if (!previous || previous.account !== account) {
      if (account) {
        // The account's own choice (this device's record, else the server's) wins once signed in.
        if (isTheme(theme) && theme !== shownTheme()) setTheme(theme);
        if (animated !== shownAnimated()) setAnimated(animated);
      } else {
        // A guest's choice lives in localStorage (older tabs wrote only there): tell the worker.
        if (isTheme(theme) && theme !== storedTheme()) void settingsAction({ type: 'setTheme', theme: storedTheme() });
        if (animated !== storedAnimated()) void settingsAction({ type: 'setAnimated', animated: storedAnimated() });
      }
      return;
    }
    if (previous.theme !== theme && isTheme(theme) && theme !== shownTheme()) setTheme(theme);
    if (previous.animated !== animated && animated !== shownAnimated()) setAnimated(animated);
  }, [state, theme, animated, account]);

  useEffect(() => {
    // Each failure streak is announced once; the worker keeps retrying and the change stays local.
    if (warning === SAVE_FAILED && !warned.current) {
      warned.current = true;
      toastError(t('settings.saveFailed'));
    } else if (warning !== SAVE_FAILED) {
      warned.current = false;
    }
  }, [warning, t]);

  return null;
}
