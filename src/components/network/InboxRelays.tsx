/**
 * "Üzenet-postafiók relék (NIP-17)": the relays of the user's kind-10050 list, where others send
 * private messages. Edited here as a list and published as a whole; until published, the changes
 * are only on this page.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkRelayUrl } from '../../../core/relayUrl';
import { connect } from '../../worker-client';
import { toastError, toastSuccess } from '../../lib/toast';
import { OneFieldForm } from '../settings/OneFieldForm';
import type { Run } from '../../lib/useBusy';

export function InboxRelays({ pubkey, busy, run }: { pubkey?: string; busy: boolean; run: Run }) {
  const { t } = useTranslation('network');
  const [relays, setRelays] = useState<string[] | undefined>(undefined);
  const [changed, setChanged] = useState(false);

  useEffect(() => {
    if (!pubkey) return;
    let live = true;
    connect()
      .then((api) => api.getInboxRelays(pubkey))
      .then((list) => live && setRelays(list))
      .catch(() => live && setRelays([]));
    return () => {
      live = false;
    };
  }, [pubkey]);

  if (!pubkey) return null;

  const add = async (text: string): Promise<string | 'clear' | void> => {
    const checked = checkRelayUrl(text.trim());
    if (!checked.ok) return t('inbox.invalid');
    if (!(relays ?? []).includes(checked.url)) {
      setRelays([...(relays ?? []), checked.url]);
      setChanged(true);
    }
    return 'clear';
  };
  const remove = (url: string) => {
    setRelays((relays ?? []).filter((r) => r !== url));
    setChanged(true);
  };
  const publish = () =>
    run(async () => {
      const result = await (await connect()).publishInboxRelays(relays ?? []);
      if (result.success) {
        setChanged(false);
        toastSuccess(t('inbox.published'));
      } else toastError(t('inbox.publishFailed'));
    });

  return (
    <section className="mod-section" aria-labelledby="network-inbox">
      <h2 id="network-inbox" className="mod-section-title">
        {t('inbox.title')}
      </h2>
      <p className="mod-section-intro">{t('inbox.intro')}</p>
      {relays === undefined ? (
        <p className="mod-empty" aria-busy="true">
          {t('loading')}
        </p>
      ) : relays.length === 0 ? (
        <p className="mod-empty">{t('inbox.empty')}</p>
      ) : (
        <ul className="mod-list" aria-label={t('inbox.title')}>
          {relays.map((url) => (
            <li key={url} className="mod-row" data-url={url}>
              <span className="net-url">{url}</span>
              <div className="mod-row-actions">
                <button type="button" className="button button-secondary" disabled={busy} aria-label={`${t('inbox.remove')}: ${url}`} onClick={() => remove(url)}>
                  {t('inbox.remove')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <OneFieldForm kind="url" label={t('inbox.addLabel')} hint={t('relays.addHint')} button={t('inbox.add')} busy={busy} onSubmit={add} />
      <button type="button" className="button" disabled={busy || !changed} onClick={() => void publish()}>
        {t('inbox.publish')}
      </button>
    </section>
  );
}
