/**
 * Settings → Notifications: one switch per notification type (protocol §3.8 names), in the
 * spec's three groups — own posts, mentions of you, mentions of your posts — plus the server's
 * additional switches. Each flip is saved at once (set_app_settings with a signed event); a
 * failed save keeps the flip here and the worker retries.
 */
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { settingsAction, useAccount, useActingPubkey } from '../../lib/account';
import { SETTINGS_NS } from '../../components/settings/i18n';
import { PushSettings } from '../../components/settings/PushSettings';
import { LoginPrompt, loginPending, SettingsLoading, SettingsSection, SettingsStatus, SwitchRow } from '../../components/settings/common';

const GROUPS = {
  own: [
    'NEW_USER_FOLLOWED_YOU',
    'USER_UNFOLLOWED_YOU',
    'YOUR_POST_WAS_ZAPPED',
    'YOUR_POST_WAS_LIKED',
    'YOUR_POST_WAS_REPOSTED',
    'YOUR_POST_WAS_REPLIED_TO',
    'REPLY_TO_REPLY',
    'YOU_WERE_MENTIONED_IN_POST',
    'YOUR_POST_WAS_MENTIONED_IN_POST',
    'YOUR_POST_WAS_HIGHLIGHTED',
    'YOUR_POST_WAS_BOOKMARKED',
  ],
  mentionedYou: [
    'POST_YOU_WERE_MENTIONED_IN_WAS_ZAPPED',
    'POST_YOU_WERE_MENTIONED_IN_WAS_LIKED',
    'POST_YOU_WERE_MENTIONED_IN_WAS_REPOSTED',
    'POST_YOU_WERE_MENTIONED_IN_WAS_REPLIED_TO',
  ],
  mentionedPost: [
    'POST_YOUR_POST_WAS_MENTIONED_IN_WAS_ZAPPED',
    'POST_YOUR_POST_WAS_MENTIONED_IN_WAS_LIKED',
    'POST_YOUR_POST_WAS_MENTIONED_IN_WAS_REPOSTED',
    'POST_YOUR_POST_WAS_MENTIONED_IN_WAS_REPLIED_TO',
  ],
} as const;

/** notificationsAdditional and the server's default for each (protocol §3.8). */
const ADDITIONAL: Record<string, boolean> = {
  ignore_events_with_too_many_mentions: true,
  only_show_reactions_from_users_i_follow: false,
  include_deep_replies: true,
  only_show_dm_notifications_from_users_i_follow: true,
};

const asFlags = (v: unknown): Record<string, boolean> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, boolean>) : {};

type Flags = Record<string, boolean>;

/**
 * The map a flip is applied to. A patch replaces the whole map, and a second flip can come before the
 * snapshot with the first one does: built from the shown map alone, it would undo the first. So flips
 * not shown yet are laid over the shown map; each is forgotten once the snapshot shows it.
 */
function useFlipBase() {
  const pending = useRef(new Map<string, boolean>());
  return (shown: Flags, key: string, on: boolean): Flags => {
    for (const [k, v] of pending.current) if (shown[k] === v) pending.current.delete(k);
    pending.current.set(key, on);
    return { ...shown, ...Object.fromEntries(pending.current) };
  };
}

export default function NotificationsSettings() {
  const { t } = useTranslation(SETTINGS_NS);
  const snapshot = useAccount();
  const pubkey = useActingPubkey();
  const flipType = useFlipBase();
  const flipAdditional = useFlipBase();
  if (loginPending(snapshot)) return <SettingsLoading />;
  if (!pubkey || !snapshot) return <LoginPrompt />;
  const { state, settings, warning } = snapshot.settings;
  if (state !== 'ready') return <SettingsLoading />;

  const types = asFlags(settings.notifications);
  const additional = asFlags(settings.notificationsAdditional);
  // The whole map goes in the patch: updateSettings replaces top-level keys.
  const setType = (key: string, on: boolean) => void settingsAction({ type: 'updateSettings', patch: { notifications: flipType(types, key, on) } });
  const setAdditional = (key: string, on: boolean) =>
    void settingsAction({ type: 'updateSettings', patch: { notificationsAdditional: { ...ADDITIONAL, ...flipAdditional(additional, key, on) } } });

  return (
    <div className="settings-form">
      <SettingsStatus warning={warning} />
      <PushSettings pubkey={pubkey} inApp={types} />
      <p className="form-hint">{t('notifications.intro')}</p>
      {(Object.keys(GROUPS) as (keyof typeof GROUPS)[]).map((group) => (
        <SettingsSection key={group} title={t(`notifications.groups.${group}`)} hint={t(`notifications.groupHints.${group}`)}>
          <div className="settings-switches">
            {GROUPS[group].map((key) => (
              <SwitchRow key={key} name={key} label={t(`notifications.types.${key}`)} checked={types[key] !== false} onChange={(on) => setType(key, on)} />
            ))}
          </div>
        </SettingsSection>
      ))}
      <SettingsSection title={t('notifications.groups.additional')} hint={t('notifications.groupHints.additional')}>
        <div className="settings-switches">
          {Object.keys(ADDITIONAL).map((key) => (
            <SwitchRow
              key={key}
              name={key}
              label={t(`notifications.additional.${key}`)}
              checked={typeof additional[key] === 'boolean' ? additional[key] : ADDITIONAL[key]}
              onChange={(on) => setAdditional(key, on)}
            />
          ))}
        </div>
      </SettingsSection>
    </div>
  );
}
