import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { decode } from 'light-bolt11-decoder';
import { formatFullDate } from '../../lib/format';
import { NOTE_NS } from '../../lib/noteI18n';
import { ZapIcon } from '../Icons';
import { CopyButton } from './CopyButton';
import { QrCode } from '../QrCode';
import { fullApi, useActingPubkey } from '../../lib/account';
import { confirmDialog } from '../../lib/overlays';
import { toastError, toastSuccess } from '../../lib/toast';
import { payWithWebln } from '../../lib/webln';
import { ECASH_NS } from '../ecash/i18n';
import { ecashErrorKey, useEcash } from '../ecash/useEcash';
import { usePayer } from '../wallet/usePayer';

interface Invoice {
  sats?: number;
  description: string;
  expiresAt?: number;
}

function readInvoice(invoice: string): Invoice | null {
  try {
    const decoded = decode(invoice);
    let msats: number | undefined;
    let description = '';
    let timestamp: number | undefined;
    for (const section of decoded.sections) {
      if (section.name === 'amount') msats = Number(section.value);
      else if (section.name === 'description') description = section.value;
      else if (section.name === 'timestamp') timestamp = section.value;
    }
    // BOLT-11: an invoice without an expiry field expires after an hour.
    const expiry = Number.isFinite(decoded.expiry) ? decoded.expiry : 3600;
    return {
      sats: msats !== undefined && Number.isFinite(msats) ? Math.floor(msats / 1000) : undefined,
      description,
      expiresAt: timestamp !== undefined ? timestamp + expiry : undefined,
    };
  } catch {
    return null;
  }
}

/** A lightning invoice written into a note: amount, description and expiry, decoded locally. */
export default function InvoiceCard({ invoice }: { invoice: string }) {
  const { t, i18n } = useTranslation(NOTE_NS);
  const locale = i18n.resolvedLanguage ?? 'hu';
  const info = useMemo(() => readInvoice(invoice), [invoice]);
  if (!info) {
    return (
      <span className="note-card note-card-invalid" role="note">
        {t('invoice.invalid')} <code className="note-card-code">{invoice.slice(0, 24)}…</code>
      </span>
    );
  }
  const expired = info.expiresAt !== undefined && info.expiresAt * 1000 < Date.now();
  return <InvoiceBody invoice={invoice} info={info} expired={expired} locale={locale} />;
}

/**
 * Spec: paying an invoice asks first. The payers are the lightning wallet (the tab's WebLN when
 * chosen, else the active NWC connection, paid in the worker) and the ecash wallet when it holds
 * enough (melt: the fee quote is shown in the confirm).
 */
function PayArea({ invoice, info, locale }: { invoice: string; info: Invoice; locale: string }) {
  const { t } = useTranslation(NOTE_NS);
  const { t: te } = useTranslation(ECASH_NS);
  const acting = useActingPubkey();
  const lightning = usePayer();
  const ecash = useEcash();
  const [state, setState] = useState<'idle' | 'paying' | 'paid'>('idle');
  const [choice, setChoice] = useState<'lightning' | 'ecash' | null>(null);
  const ecashOk = ecash?.state === 'ready' && info.sats !== undefined && ecash.total > info.sats;
  if (state === 'paid') return <span className="note-card-paid" role="status">{t('invoice.paid')}</span>;
  if (!acting || (!lightning && !ecashOk) || info.sats === undefined) {
    return <QrCode value={`lightning:${invoice}`} label={t('invoice.qr')} className="note-card-qr" />;
  }
  const payer = choice ?? (lightning ? 'lightning' : 'ecash');
  const payLightning = async () => {
    if (!lightning) return;
    const ok = await confirmDialog({
      title: t('invoice.confirmTitle'),
      message: t('invoice.confirmMessage', { amount: (info.sats ?? 0).toLocaleString(locale), wallet: lightning.name }),
      confirmLabel: t('invoice.pay'),
    });
    if (!ok) return;
    setState('paying');
    // WebLN pays in this tab; an NWC connection in the worker.
    const result =
      lightning.kind === 'webln'
        ? await payWithWebln(invoice).then(
            () => ({ status: 'paid' as const }),
            () => ({ status: 'failed' as const }),
          )
        : await (await fullApi()).payInvoice(invoice).catch(() => ({ status: 'failed' as const }));
    if (result.status === 'paid') setState('paid');
    else {
      setState('idle');
      toastError(t('invoice.payFailed'));
    }
  };
  const payEcash = async () => {
    setState('paying');
    const api = await fullApi();
    const q = await api.ecashMeltQuote(invoice).catch(() => ({ ok: false as const, failure: 'network' as const, message: '' }));
    if (!q.ok) {
      setState('idle');
      return toastError(te(ecashErrorKey(q)));
    }
    const ok = await confirmDialog({
      title: te('pay.confirmTitle'),
      message: te('pay.confirmMessage', { amount: q.quote.amount.toLocaleString(locale), fee: q.quote.fee.toLocaleString(locale), mint: q.quote.mint }),
      confirmLabel: t('invoice.pay'),
    });
    if (!ok) return setState('idle');
    const r = await api.ecashMelt(invoice, q.quote).catch(() => ({ ok: false as const, failure: 'network' as const, message: '' }));
    if (r.ok) {
      setState('paid');
      toastSuccess(te('pay.paid', { change: r.change.toLocaleString(locale) }));
    } else {
      setState('idle');
      toastError(te(ecashErrorKey(r)));
    }
  };
  return (
    <span className="note-card-payers">
      {lightning && ecashOk && (
        <select className="form-input" aria-label={te('pay.payer')} value={payer} onChange={(e) => setChoice(e.target.value === 'ecash' ? 'ecash' : 'lightning')}>
          <option value="lightning">{lightning.name}</option>
          <option value="ecash">{te('pay.ecashWallet', { sats: (ecash?.total ?? 0).toLocaleString(locale) })}</option>
        </select>
      )}
      <button type="button" className="button note-card-pay" disabled={state === 'paying'} onClick={() => void (payer === 'ecash' ? payEcash() : payLightning())}>
        {state === 'paying' && payer === 'ecash' ? te('pay.quoting') : t('invoice.pay')}
      </button>
    </span>
  );
}

function InvoiceBody({ invoice, info, expired, locale }: { invoice: string; info: Invoice; expired: boolean; locale: string }) {
  const { t } = useTranslation(NOTE_NS);
  return (
    <section className="note-card note-card-invoice" aria-label={t('invoice.title')}>
      <span className="note-card-icon" aria-hidden="true">
        <ZapIcon size={22} />
      </span>
      <span className="note-card-body">
        <span className="note-card-kicker">{t('invoice.title')}</span>
        <span className="note-card-amount">
          {info.sats !== undefined ? t('invoice.amount', { amount: info.sats.toLocaleString(locale) }) : t('invoice.anyAmount')}
        </span>
        {info.description && <span className="note-card-description">{info.description}</span>}
        {info.expiresAt !== undefined && (
          <span className={`note-card-meta${expired ? ' is-expired' : ''}`}>
            {t(expired ? 'invoice.expired' : 'invoice.expires', { date: formatFullDate(info.expiresAt, locale) })}
          </span>
        )}
      </span>
      {!expired && <PayArea invoice={invoice} info={info} locale={locale} />}
      <CopyButton value={invoice} label={t('invoice.copy')} copiedLabel={t('invoice.copied')} />
    </section>
  );
}
