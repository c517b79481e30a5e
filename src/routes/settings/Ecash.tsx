/**
 * /settings/ecash: the account's ecash (Cashu) wallet. Proofs and the seed stay in the shared
 * worker, sealed to the account; this page sees balances per mint, history and the lists, and
 * asks the worker for every operation.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '../../components/settings/i18n';
import '../../components/moderation/moderation.css';
import '../../styles/modal.css';
import '../../styles/nwc.css';
import { ECASH_NS } from '../../components/ecash/i18n';
import { ecashErrorKey, useEcash, useHufRate } from '../../components/ecash/useEcash';
import { LightningForm, ReceiveForm, SendForm } from '../../components/ecash/EcashForms';
import { Failed, History, Pending, Seed } from '../../components/ecash/EcashLists';
import { SignInPrompt } from '../../components/moderation/SignInPrompt';
import { connect } from '../../worker-client';
import { useWorkerRequest } from '../../lib/useWorkerRequest';
import { useAccount } from '../../lib/account';
import { confirmDialog } from '../../lib/overlays';
import { toastError, toastSuccess } from '../../lib/toast';
import { useBusy } from '../../lib/useBusy';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="mod-section" aria-labelledby={id}>
      <h2 id={id} className="mod-section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function EcashSettings() {
  const { t, i18n } = useTranslation(ECASH_NS);
  const account = useAccount();
  const ecash = useEcash();
  const rate = useHufRate();
  const demoMint = useWorkerRequest((api) => api.ecashDemoMint(), []).data ?? null;
  const [url, setUrl] = useState('');
  const { busy, run } = useBusy();
  if (!ecash) return <div className="settings-loading" aria-busy="true" />;
  if (ecash.state === 'none' || !account?.login.pubkey) return <SignInPrompt text={t('page.signIn')} />;
  if (ecash.state === 'loading') return <p className="mod-empty">{t('page.loading')}</p>;
  if (ecash.state === 'error') return <p className="mod-empty">{t('page.openFailed')}</p>;

  const fmt = new Intl.NumberFormat(i18n.language);
  const addMint = (mintUrl: string) =>
    run(async () => {
      const r = await (await connect()).ecashAddMint(mintUrl);
      if (r.ok) {
        setUrl('');
        toastSuccess(t('page.mintAdded', { name: r.name }));
      } else toastError(t(ecashErrorKey(r)));
    });
  const removeMint = async (mintUrl: string, name: string) => {
    const ok = await confirmDialog({ title: t('page.removeTitle'), message: t('page.removeMessage', { name }), confirmLabel: t('page.removeMint'), danger: true });
    if (!ok) return;
    await run(async () => {
      const r = await (await connect()).ecashRemoveMint(mintUrl);
      if (!r.ok) toastError(t(ecashErrorKey(r)));
    });
  };
  const submitMint = (e: FormEvent) => {
    e.preventDefault();
    void addMint(url);
  };

  return (
    <div className="mod-page nwc-page ecash-page">
      <Section id="ecash-balance" title={t('page.balanceTitle')}>
        <p className="nwc-balance" data-testid="ecash-total">
          {t('page.total', { sats: fmt.format(ecash.total) })}
          {rate !== null && <span className="ecash-huf"> {t('page.totalHuf', { huf: fmt.format(Math.round((ecash.total * rate) / 1e8)) })}</span>}
        </p>
      </Section>
      <Section id="ecash-mints" title={t('page.mintsTitle')}>
        {ecash.mints.length === 0 ? (
          <p className="mod-empty">{t('page.noMints')}</p>
        ) : (
          <ul className="mod-list">
            {ecash.mints.map((m) => (
              <li key={m.url} className="mod-row nwc-row" data-testid="ecash-mint" data-url={m.url}>
                <div className="nwc-row-main">
                  <strong className="nwc-name">{m.name}</strong>
                  <span className="nwc-relay">{m.url}</span>
                  <span data-testid="ecash-mint-balance">{t('page.mintBalance', { sats: fmt.format(m.balance) })}</span>
                </div>
                <div className="mod-row-actions">
                  <button type="button" className="button button-secondary" disabled={busy} onClick={() => void removeMint(m.url, m.name)}>
                    {t('page.removeMint')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
        {demoMint && !ecash.mints.some((m) => m.url === demoMint) && (
          <p>
            <button type="button" className="button" disabled={busy} onClick={() => void addMint(demoMint)}>
              {t('page.addDemo')}
            </button>
          </p>
        )}
        <form className="nwc-add" onSubmit={submitMint}>
          <label className="form-field">
            <span>{t('page.mintUrl')}</span>
            <input className="form-input" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://…" spellCheck={false} autoComplete="off" />
          </label>
          <button type="submit" className="button" disabled={busy || !url.trim()}>
            {t('page.add')}
          </button>
        </form>
      </Section>
      <Section id="ecash-receive" title={t('page.receiveTitle')}>
        <ReceiveForm busy={busy} run={run} />
      </Section>
      <Section id="ecash-send" title={t('page.sendTitle')}>
        <SendForm ecash={ecash} busy={busy} run={run} />
      </Section>
      <Section id="ecash-lightning" title={t('page.lightningTitle')}>
        <LightningForm ecash={ecash} demoMint={demoMint} busy={busy} run={run} />
      </Section>
      <Section id="ecash-pending" title={t('page.pendingTitle')}>
        <Pending ecash={ecash} busy={busy} run={run} />
      </Section>
      <Section id="ecash-failed" title={t('page.failedTitle')}>
        <Failed ecash={ecash} busy={busy} run={run} />
      </Section>
      <Section id="ecash-history" title={t('page.historyTitle')}>
        <History ecash={ecash} />
      </Section>
      <Section id="ecash-seed" title={t('page.seedTitle')}>
        <Seed demoMint={demoMint} busy={busy} run={run} />
      </Section>
    </div>
  );
}
