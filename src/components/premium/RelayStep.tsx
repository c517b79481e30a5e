import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accountAction, fullApi } from '../../lib/account';
import { toastError, toastSuccess } from '../../lib/toast';
import { useRelays } from '../network/hooks';
import { relayMap, sameRelay } from '../network/relayList';
import { CopyButton } from '../embeds/CopyButton';
import { premiumRelayUrl } from './purchase';

/** The premium relay: its address, and one click that adds it to the pool and publishes the list (kind 10002). */
export default function RelayStep() {
  const { t } = useTranslation('premium');
  const relays = useRelays();
  const [busy, setBusy] = useState(false);
  const url = premiumRelayUrl();
  const listed = !!relays?.some((r) => sameRelay(r.url, url));
  const add = async () => {
    setBusy(true);
    try {
      const result = await (await fullApi()).addRelay(url, { read: true, write: true });
      if (!result.ok) throw new Error(result.error);
      const published = await accountAction({ type: 'publishRelays', relays: relayMap(relays ?? [], result.url, { read: true, write: true }) });
      if (!published.ok) throw new Error(published.message ?? published.code ?? '');
      toastSuccess(t('relay.added'));
    } catch (err) {
      toastError(t('relay.addFailed', { reason: err instanceof Error ? err.message : '' }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="premium-step" aria-labelledby="premium-relay-heading">
      <h2 id="premium-relay-heading">{t('relay.heading')}</h2>
      <p>{t('relay.text')}</p>
      <p>
        <code className="premium-invoice" data-testid="premium-relay-url">
          {url}
        </code>{' '}
        <CopyButton value={url} label={t('media.copy')} copiedLabel={t('media.copied')} />
      </p>
      {listed ? (
        <p role="status">{t('relay.added')}</p>
      ) : (
        <button type="button" className="button" disabled={busy || !relays} onClick={() => void add()}>
          {t('relay.add')}
        </button>
      )}
    </section>
  );
}
