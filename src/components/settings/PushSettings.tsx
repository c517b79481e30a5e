/**
 * Settings → Notifications → "Push értesítések": opt in on this browser (permission, then the
 * service worker's push subscription, signed for the user by the worker), choose the kinds of news,
 * or turn it off. A kind switched off in the in-app list above is not pushed either (the server sends
 * from that list), so its push switch shows it and cannot be turned on here.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PushType } from '../../../core/types';
import { disablePush, enablePush, PUSH_TYPES, PushError, pushStateFor, pushSupport, setPushTypes } from '../../lib/push';
import { toastSuccess } from '../../lib/toast';
import { useRequest } from '../../lib/useWorkerRequest';
import { SETTINGS_NS } from './i18n';
import { SettingsSection, SwitchRow } from './common';

/** The in-app switches each kind of push follows; dm has none (messages are not in the list). */
const FOLLOWS: Record<PushType, string[]> = {
  dm: [],
  mention: ['YOU_WERE_MENTIONED_IN_POST', 'YOUR_POST_WAS_MENTIONED_IN_POST'],
  reply: ['YOUR_POST_WAS_REPLIED_TO', 'REPLY_TO_REPLY'],
  zap: ['YOUR_POST_WAS_ZAPPED'],
};

const ERROR_CODES = new Set(['denied', 'dismissed', 'no-service-worker', 'no-server-key', 'subscribe-failed', 'push-unreachable', 'push-refused', 'no-subscription', 'unsupported']);

export function PushSettings({ pubkey, inApp }: { pubkey: string; inApp: Record<string, boolean> }) {
  const { t } = useTranslation(SETTINGS_NS);
  const { data: loaded } = useRequest(() => pushStateFor(pubkey), [pubkey]);
  // What a switch here changed, for the account it was changed for; until then what the browser has.
  const [changed, setChanged] = useState<{ pubkey: string; types: PushType[] | null }>();
  const types = changed && changed.pubkey === pubkey ? changed.types : loaded;
  const setTypes = (next: PushType[] | null) => setChanged({ pubkey, types: next });
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const support = pushSupport();

  const offInList = (type: PushType) => FOLLOWS[type].length > 0 && FOLLOWS[type].every((key) => inApp[key] === false);

  const run = async (action: () => Promise<void>, done: string, next: PushType[] | null) => {
    setWorking(true);
    setError(null);
    try {
      await action();
      setTypes(next);
      toastSuccess(done);
    } catch (err) {
      // Browser and server reasons are English; the user reads ours. Signing codes are all 'sign'.
      const code = err instanceof PushError && ERROR_CODES.has(err.code) ? err.code : 'sign';
      setError(t(`notifications.push.errors.${code}`));
    } finally {
      setWorking(false);
    }
  };

  const body = () => {
    if (support === 'unsupported') return <p className="form-hint">{t('notifications.push.unsupported')}</p>;
    if (support === 'denied' && !types) return <p className="form-hint">{t('notifications.push.denied')}</p>;
    if (types === undefined) return <p className="form-hint">{t('notifications.push.working')}</p>;
    if (types === null) {
      return (
        <button
          type="button"
          className="button"
          disabled={working}
          aria-busy={working}
          onClick={() => void run(() => enablePush(pubkey, [...PUSH_TYPES]), t('notifications.push.enabled'), [...PUSH_TYPES])}
        >
          {working ? t('notifications.push.working') : t('notifications.push.enable')}
        </button>
      );
    }
    const toggle = (type: PushType, on: boolean) => {
      const next = PUSH_TYPES.filter((x) => (x === type ? on : types.includes(x)));
      void run(() => setPushTypes(pubkey, next), t('notifications.push.saved'), next);
    };
    return (
      <>
        <p className="form-hint" data-push-state="on">
          {t('notifications.push.on')}
        </p>
        <div className="settings-switches">
          {PUSH_TYPES.map((type) => (
            <SwitchRow
              key={type}
              name={`push-${type}`}
              label={t(`notifications.push.types.${type}`)}
              hint={offInList(type) ? t('notifications.push.offInList') : undefined}
              checked={types.includes(type) && !offInList(type)}
              disabled={working || offInList(type)}
              onChange={(on) => toggle(type, on)}
            />
          ))}
        </div>
        <button type="button" className="button button-secondary" disabled={working} aria-busy={working} onClick={() => void run(disablePush, t('notifications.push.disabled'), null)}>
          {t('notifications.push.disable')}
        </button>
      </>
    );
  };

  return (
    <SettingsSection title={t('notifications.push.title')} hint={t('notifications.push.hint')}>
      {body()}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </SettingsSection>
  );
}
