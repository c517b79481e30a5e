/**
 * The pool's relays with their live state, read/write switches (published as kind 10002), removal
 * after the confirm that warns the connection is cut, and adding one by URL.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { RelayInfo } from '../../../worker/types';
import { fullApi } from '../../lib/account';
import { confirmDialog } from '../../lib/overlays';
import { toastSuccess } from '../../lib/toast';
import { relayMap } from './relayList';
import { RelayRow } from './RelayRow';
import { applyToPool, publishRelayList } from './save';

export function RelaysSection({ relays, busy, run }: { relays: RelayInfo[] | undefined; busy: boolean; run: (f: () => Promise<void>) => Promise<void> }) {
  const { t } = useTranslation('network');
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState('');

  const setFlags = (relay: RelayInfo, read: boolean, write: boolean) =>
    run(async () => {
      const map = relayMap(relays ?? [], relay.url, { read, write });
      // Published before the pool changes: turning the last write relay off must still reach it.
      if (!(await publishRelayList(map))) return;
      await applyToPool(map);
      toastSuccess(t('saved'));
    });

  const remove = async (relay: RelayInfo) => {
    const ok = await confirmDialog({
      title: t('relays.removeTitle'),
      message: t('relays.removeMessage', { url: relay.url }),
      confirmLabel: t('relays.remove'),
      danger: true,
    });
    if (!ok) return;
    await run(async () => {
      await publishRelayList(relayMap(relays ?? [], relay.url, null));
      await (await fullApi()).removeRelay(relay.url);
      toastSuccess(t('relays.removed'));
    });
  };

  const add = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const api = await fullApi();
      const result = await api.addRelay(text.trim());
      if (!result.ok) {
        setError(result.error);
        return;
      }
      setText('');
      const map = relayMap(relays ?? [], result.url, { read: true, write: true });
      if (await publishRelayList(map)) toastSuccess(t('relays.added'));
    });
  };

  return (
    <section className="mod-section" aria-labelledby="network-relays">
      <h2 id="network-relays" className="mod-section-title">
        {t('relays.title')}
      </h2>
      <p className="mod-section-intro">{t('relays.intro')}</p>
      {!relays ? (
        <p className="mod-empty" aria-busy="true">
          {t('loading')}
        </p>
      ) : relays.length === 0 ? (
        <p className="mod-empty">{t('relays.empty')}</p>
      ) : (
        <ul className="mod-list" aria-label={t('relays.title')}>
          {relays.map((r) => (
            <RelayRow key={r.url} relay={r} busy={busy} onFlags={(read, write) => void setFlags(r, read, write)} onRemove={() => void remove(r)} />
          ))}
        </ul>
      )}
      <form className="mod-add" onSubmit={add} noValidate>
        <label htmlFor={`${id}-url`} className="mod-add-label">
          {t('relays.addLabel')}
        </label>
        <div className="mod-add-line">
          <input
            id={`${id}-url`}
            className="form-input"
            type="url"
            inputMode="url"
            value={text}
            placeholder="wss://"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-note`}
            onChange={(e) => {
              setText(e.target.value);
              setError('');
            }}
          />
          <button type="submit" className="button" disabled={busy}>
            {t('relays.add')}
          </button>
        </div>
        {error ? (
          <p id={`${id}-note`} className="form-error" role="alert">
            {error}
          </p>
        ) : (
          <p id={`${id}-note`} className="form-hint">
            {t('relays.addHint')}
          </p>
        )}
      </form>
    </section>
  );
}
