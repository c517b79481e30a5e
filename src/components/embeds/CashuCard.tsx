import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TokenSummary } from '../../../core/types';
import { decodeCashu } from '../../lib/content';
import { NOTE_NS } from '../../lib/noteI18n';
import { connect } from '../../worker-client';
import { useWorkerRequest } from '../../lib/useWorkerRequest';
import { useActingPubkey } from '../../lib/account';
import { confirmDialog } from '../../lib/overlays';
import { toastError, toastSuccess } from '../../lib/toast';
import { ECASH_NS } from '../ecash/i18n';
import { ecashErrorKey } from '../ecash/useEcash';
import { CopyButton } from './CopyButton';

function mintHost(mint: string): string {
  try {
    return new URL(mint).host;
  } catch {
    return mint;
  }
}

/** cashuA is read here; cashuB (CBOR) by the worker's decoder, so the tab does not load it. */
function useTokenSummary(token: string): TokenSummary | null | undefined {
  const local = useMemo(() => (token.startsWith('cashuA') ? decodeCashu(token) : undefined), [token]);
  const { data, error } = useWorkerRequest(local === undefined ? (api) => api.ecashDecode(token) : null, [token, local]);
  const remote = error !== undefined ? null : data;
  return local !== undefined ? local : remote;
}

/** Spec: redeeming ecash asks first; the worker swaps the token at its mint into fresh proofs. */
function RedeemButton({ token, info }: { token: string; info: TokenSummary }) {
  const { t, i18n } = useTranslation(ECASH_NS);
  const acting = useActingPubkey();
  const [state, setState] = useState<'idle' | 'busy' | 'done' | 'spent'>('idle');
  if (!acting) return null;
  if (state === 'done') return <span className="note-card-paid" role="status">{t('card.redeemed', { amount: info.amount.toLocaleString(i18n.resolvedLanguage ?? 'hu') })}</span>;
  if (state === 'spent') return <span className="note-card-meta is-expired" role="status">{t('card.alreadySpent')}</span>;
  const redeem = async () => {
    const ok = await confirmDialog({
      title: t('card.confirmTitle'),
      message: t('card.confirmMessage', { amount: info.amount.toLocaleString(i18n.resolvedLanguage ?? 'hu'), mint: mintHost(info.mint) }),
      confirmLabel: t('card.redeem'),
    });
    if (!ok) return;
    setState('busy');
    const r = await (await connect()).ecashReceive(token).catch(() => ({ ok: false as const, failure: 'network' as const, message: '' }));
    if (r.ok) {
      setState('done');
      toastSuccess(t('card.redeemed', { amount: r.amount.toLocaleString(i18n.resolvedLanguage ?? 'hu') }));
    } else if (r.failure === 'spent') setState('spent');
    else {
      setState('idle');
      toastError(r.failure === 'invalid' ? t(ecashErrorKey(r)) : `${t(ecashErrorKey(r))} ${t('card.failedSaved')}`);
    }
  };
  return (
    <button type="button" className="button note-card-pay" disabled={state === 'busy'} onClick={() => void redeem()}>
      {state === 'busy' ? t('card.redeeming') : t('card.redeem')}
    </button>
  );
}

/** An ecash token written into a note: its total, mint and memo, and a redeem button for a signed-in reader. */
export function CashuCard({ token }: { token: string }) {
  const { t, i18n } = useTranslation(NOTE_NS);
  const info = useTokenSummary(token);
  if (info === undefined) return <span className="note-card note-card-cashu" aria-busy="true" />;
  if (!info) {
    return (
      <span className="note-card note-card-invalid" role="note">
        {t('cashu.invalid')} <code className="note-card-code">{token.slice(0, 24)}…</code>
      </span>
    );
  }
  return (
    <section className="note-card note-card-cashu" aria-label={t('cashu.title')}>
      <span className="note-card-icon" aria-hidden="true">
        <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="1.8">
          <circle cx="12" cy="12" r="9" />
          <path d="M14.5 9.5a3 3 0 1 0 0 5" strokeLinecap="round" />
        </svg>
      </span>
      <span className="note-card-body">
        <span className="note-card-kicker">{t('cashu.title')}</span>
        <span className="note-card-amount">
          {t('cashu.amount', { amount: info.amount.toLocaleString(i18n.resolvedLanguage ?? 'hu'), unit: info.unit })}
        </span>
        {info.memo && <span className="note-card-description">{info.memo}</span>}
        <span className="note-card-meta">{t('cashu.mint', { mint: mintHost(info.mint) })}</span>
      </span>
      <RedeemButton token={token} info={info} />
      <CopyButton value={token} label={t('cashu.copy')} copiedLabel={t('cashu.copied')} />
    </section>
  );
}
