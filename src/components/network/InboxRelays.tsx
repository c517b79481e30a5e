/**
 * "Üzenet-postafiók relék (NIP-17)": the relays of the user's kind-10050 list, where others send
 * private messages. Edited here as a list and published as a whole; until published, the changes
 * are only on this page.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkRelayUrl } from '../../../core/relayUrl';
import { connect } from '../../worker-client';
import { useWorkerRequest } from '../../lib/useWorkerRequest';
import { toastError, toastSuccess } from '../../lib/toast';
import { OneFieldForm } from '../settings/OneFieldForm';
import type { Run } from '../../lib/useBusy';

export function InboxRelays({ pubkey, busy, run }: { pubkey?: string; busy: boolean; run: Run }) {
  const { t } = useTranslation('network');
  // What this page changed, for the account it was changed for; until then the published list.
  const [edited, setEdited] = useState<{ pubkey: string; list: string[] }>();
  const [changed, setChanged] = useState(false);
  const { data: published, error } = useWorkerRequest(pubkey ? (api) => api.getInboxRelays(pubkey) : null, [pubkey]);
  const relays = edited && edited.pubkey === pubkey ? edited.list : error !== undefined ? [] : published;
  const setRelays = (list: string[]) => pubkey && setEdited({ pubkey, list });

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
