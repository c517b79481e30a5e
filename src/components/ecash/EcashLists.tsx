/** The ecash page's lists: history, sent tokens not yet redeemed, tokens with errors, and the seed phrase. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { EcashSnapshot } from '../../../core/types';
import { connect } from '../../worker-client';
import { toastError, toastSuccess } from '../../lib/toast';
import { ECASH_NS } from './i18n';
import { ecashErrorKey } from './useEcash';
import type { Run } from '../../lib/useBusy';

const when = (at: number, lang: string) => new Date(at * 1000).toLocaleString(lang);

export function History({ ecash }: { ecash: EcashSnapshot }) {
  const { t, i18n } = useTranslation(ECASH_NS);
  if (ecash.history.length === 0) return <p className="mod-empty">{t('page.noHistory')}</p>;
  return (
    <ul className="mod-list" data-testid="ecash-history">
      {ecash.history.map((h) => (
        <li key={h.id} className="mod-row">
          <span>{t(`page.history.${h.type}`, { sats: h.amount })}</span>
          <time dateTime={new Date(h.at * 1000).toISOString()}>{when(h.at, i18n.language)}</time>
        </li>
      ))}
    </ul>
  );
}

export function Pending({ ecash, busy, run }: { ecash: EcashSnapshot; busy: boolean; run: Run }) {
  const { t, i18n } = useTranslation(ECASH_NS);
  const check = () =>
    run(async () => {
      const r = await (await connect()).ecashCheckPending();
      if (r.ok) toastSuccess(t('page.checked', { claimed: r.claimed }));
      else toastError(t(ecashErrorKey(r)));
    });
  return (
    <>
      {ecash.pending.length === 0 ? (
        <p className="mod-empty">{t('page.noPending')}</p>
      ) : (
        <ul className="mod-list">
          {ecash.pending.map((p) => (
            <li key={p.id} className="mod-row">
              <span>{t('page.mintBalance', { sats: p.amount })}</span>
              <time dateTime={new Date(p.at * 1000).toISOString()}>{when(p.at, i18n.language)}</time>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button button-secondary" disabled={busy || ecash.mints.length === 0} onClick={() => void check()}>
        {t('page.checkPending')}
      </button>
    </>
  );
}

export function Failed({ ecash, busy, run }: { ecash: EcashSnapshot; busy: boolean; run: Run }) {
  const { t } = useTranslation(ECASH_NS);
  if (ecash.failed.length === 0) return <p className="mod-empty">{t('page.noFailed')}</p>;
  const retry = (id: string) =>
    run(async () => {
      const r = await (await connect()).ecashRetry(id);
      if (r.ok) toastSuccess(t('card.redeemed', { amount: r.amount }));
      else toastError(t(ecashErrorKey(r)));
    });
  const dismiss = (id: string) => run(async () => (await connect()).ecashDismissFailed(id));
  return (
    <ul className="mod-list" data-testid="ecash-failed">
      {ecash.failed.map((f) => (
        <li key={f.id} className="mod-row">
          <span>
            {t('page.mintBalance', { sats: f.amount })} · {t(ecashErrorKey(f))}
          </span>
          <div className="mod-row-actions">
            <button type="button" className="button button-secondary" disabled={busy} onClick={() => void retry(f.id)}>
              {t('page.retry')}
            </button>
            <button type="button" className="button button-secondary" disabled={busy} onClick={() => void dismiss(f.id)}>
              {t('page.dismiss')}
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function Seed({ demoMint, busy, run }: { demoMint: string | null; busy: boolean; run: Run }) {
  const { t } = useTranslation(ECASH_NS);
  const [mnemonic, setMnemonic] = useState<string | null>(null);
  const [phrase, setPhrase] = useState('');
  const [mint, setMint] = useState(demoMint ?? '');
  const show = () =>
    run(async () => {
      const r = await (await connect()).ecashSeed();
      if (r.ok) setMnemonic(r.mnemonic);
      else toastError(t(ecashErrorKey(r)));
    });
  const restore = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const r = await (await connect()).ecashRestore(phrase, mint.trim() || undefined);
      if (r.ok) {
        setPhrase('');
        toastSuccess(t('page.restored', { sats: r.amount }));
      } else toastError(t(ecashErrorKey(r)));
    });
  };
  return (
    <>
      <p>{t('page.seedHelp')}</p>
      {mnemonic ? (
        <code className="note-card-code ecash-seed" data-testid="ecash-seed">
          {mnemonic}
        </code>
      ) : (
        <button type="button" className="button button-secondary" disabled={busy} onClick={() => void show()}>
          {t('page.showSeed')}
        </button>
      )}
      <form className="nwc-add" onSubmit={restore}>
        <label className="form-field">
          <span>{t('page.restoreLabel')}</span>
          <textarea className="form-input" rows={2} value={phrase} onChange={(e) => setPhrase(e.target.value)} spellCheck={false} autoComplete="off" />
        </label>
        <label className="form-field">
          <span>{t('page.restoreMint')}</span>
          <input className="form-input" value={mint} onChange={(e) => setMint(e.target.value)} spellCheck={false} />
        </label>
        <button type="submit" className="button" disabled={busy}>
          {t('page.restore')}
        </button>
      </form>
    </>
  );
}
