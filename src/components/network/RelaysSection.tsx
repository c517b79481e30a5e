/**
 * The pool's relays with their live state, read/write switches (published as kind 10002), removal
 * after the confirm that warns the connection is cut, and adding one by URL.
 */
import { useTranslation } from 'react-i18next';
import type { RelayInfo } from '../../../core/types';
import { connect } from '../../worker-client';
import { confirmDialog } from '../../lib/overlays';
import { toastSuccess } from '../../lib/toast';
import { relayMap } from './relayList';
import { OneFieldForm } from '../settings/OneFieldForm';
import { RelayRow } from './RelayRow';
import { applyToPool, publishRelayList } from './save';
import type { Run } from '../../lib/useBusy';

export function RelaysSection({ relays, busy, run }: { relays: RelayInfo[] | undefined; busy: boolean; run: Run }) {
  const { t } = useTranslation('network');

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
      await (await connect()).removeRelay(relay.url);
      toastSuccess(t('relays.removed'));
    });
  };

  const add = async (text: string): Promise<string | 'clear' | void> => {
    let outcome: string | 'clear' | undefined;
    await run(async () => {
      const result = await (await connect()).addRelay(text.trim());
      if (!result.ok) {
        outcome = result.error;
        return;
      }
      outcome = 'clear';
      const map = relayMap(relays ?? [], result.url, { read: true, write: true });
      if (await publishRelayList(map)) toastSuccess(t('relays.added'));
    });
    return outcome;
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
      <OneFieldForm kind="url" label={t('relays.addLabel')} hint={t('relays.addHint')} button={t('relays.add')} busy={busy} onSubmit={add} />
    </section>
  );
}
