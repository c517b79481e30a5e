import { useTranslation } from 'react-i18next';
import type { RelayInfo } from '../../../core/types';
import { Switch } from '../moderation/Switch';

/** One relay: its state as a coloured dot and words, read and write switches, and remove. */
export function RelayRow({ relay, busy, onFlags, onRemove }: { relay: RelayInfo; busy: boolean; onFlags: (read: boolean, write: boolean) => void; onRemove: () => void }) {
  const { t } = useTranslation('network');
  return (
    <li className="mod-row net-relay" data-url={relay.url} data-state={relay.state}>
      <div className="net-relay-main">
        <span className="net-dot" data-state={relay.state} aria-hidden="true" />
        <span className="mod-person-text">
          <span className="net-url">{relay.url}</span>
          <span className="net-state">
            {t(`state.${relay.state}`)}
            {relay.state !== 'connected' && relay.attempts > 0 && ` · ${t('relays.attempts', { count: relay.attempts })}`}
          </span>
        </span>
      </div>
      <div className="mod-row-actions">
        <Switch label={t('relays.read')} checked={relay.read} disabled={busy || (relay.read && !relay.write)} onChange={(on) => onFlags(on, relay.write)} />
        <Switch label={t('relays.write')} checked={relay.write} disabled={busy || (relay.write && !relay.read)} onChange={(on) => onFlags(relay.read, on)} />
        <button type="button" className="button button-secondary" disabled={busy} aria-label={`${t('relays.remove')}: ${relay.url}`} onClick={onRemove}>
          {t('relays.remove')}
        </button>
      </div>
    </li>
  );
}
