/**
 * "Saját relék": the relays of the published kind-10002 list next to what the pool uses, and the
 * caching service's suggested relays (get_default_relays) that are not used yet, each addable.
 */
import { useTranslation } from 'react-i18next';
import type { RelayFlags, RelayInfo } from '../../../core/types';
import { connect } from '../../worker-client';
import { useWorkerRequest } from '../../lib/useWorkerRequest';
import { toastSuccess } from '../../lib/toast';
import { parseDefaultRelays, parseUserRelays, relayMap, sameRelay } from './relayList';
import { publishRelayList } from './save';
import type { Run } from '../../lib/useBusy';

export function OwnRelays({ pubkey, relays, busy, run }: { pubkey?: string; relays: RelayInfo[]; busy: boolean; run: Run }) {
  const { t } = useTranslation('network');
  // The published list changes when this page publishes one; the pool's URLs are the cue to ask again.
  const poolKey = relays.map((r) => `${r.url}:${r.read}:${r.write}`).join(',');
  const { data, error } = useWorkerRequest(
    async (api) => {
      const [defaults, mine] = await Promise.all([api.request('get_default_relays'), pubkey ? api.request('get_user_relays', { pubkey }) : Promise.resolve(null)]);
      return { suggested: parseDefaultRelays(defaults.events), own: mine ? parseUserRelays(mine.events) : null };
    },
    [pubkey, poolKey],
    { keep: true },
  );
  // Without an answer there is no list to show; the suggestions of an earlier answer stay.
  const own: Record<string, RelayFlags> | null | undefined = error !== undefined ? null : data?.own;
  const suggested = data?.suggested ?? [];

  const inPool = (url: string) => relays.some((r) => sameRelay(r.url, url));
  const use = (url: string, flags: RelayFlags = { read: true, write: true }) =>
    run(async () => {
      const result = await (await connect()).addRelay(url, flags);
      if (!result.ok) return;
      if (await publishRelayList(relayMap(relays, result.url, flags))) toastSuccess(t('relays.added'));
    });

  const ownEntries = Object.entries(own ?? {});
  const missing = suggested.filter((u) => !inPool(u));

  return (
    <section className="mod-section" aria-labelledby="network-own">
      <h2 id="network-own" className="mod-section-title">
        {t('own.title')}
      </h2>
      <p className="mod-section-intro">{t('own.intro')}</p>
      {pubkey &&
        (own === undefined ? (
          <p className="mod-empty" aria-busy="true">
            {t('loading')}
          </p>
        ) : ownEntries.length === 0 ? (
          <p className="mod-empty">{t('own.noList')}</p>
        ) : (
          <ul className="mod-list" aria-label={t('own.listed')}>
            {ownEntries.map(([url, flags]) => (
              <li key={url} className="mod-row" data-url={url}>
                <span className="mod-person-text">
                  <span className="net-url">{url}</span>
                  <span className="net-state">
                    {[flags.read && t('relays.read'), flags.write && t('relays.write')].filter(Boolean).join(' · ')}
                  </span>
                </span>
                <div className="mod-row-actions">
                  {inPool(url) ? (
                    <span className="net-state">{t('own.inPool')}</span>
                  ) : (
                    <button type="button" className="button button-secondary" disabled={busy} onClick={() => void use(url, flags)}>
                      {t('own.use')}
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        ))}
      <h3 className="net-subtitle">{t('own.suggested')}</h3>
      {missing.length === 0 ? (
        <p className="mod-empty">{t('own.noSuggested')}</p>
      ) : (
        <ul className="mod-list" aria-label={t('own.suggested')}>
          {missing.map((url) => (
            <li key={url} className="mod-row" data-url={url}>
              <span className="net-url">{url}</span>
              <div className="mod-row-actions">
                <button type="button" className="button button-secondary" disabled={busy} aria-label={`${t('own.addSuggested')}: ${url}`} onClick={() => void use(url)}>
                  {t('own.addSuggested')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
