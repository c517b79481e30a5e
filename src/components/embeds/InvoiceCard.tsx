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
import { toastError } from '../../lib/toast';
import { payWithWebln } from '../../lib/webln';
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

/** Spec: paying an invoice asks first; the active wallet pays it in the worker. */
function PayArea({ invoice, info, locale }: { invoice: string; info: Invoice; locale: string }) {
  const { t } = useTranslation(NOTE_NS);
  const acting = useActingPubkey();
  const payer = usePayer();
  const [state, setState] = useState<'idle' | 'paying' | 'paid'>('idle');
  if (state === 'paid') return <span className="note-card-paid" role="status">{t('invoice.paid')}</span>;
  if (!acting || !payer || info.sats === undefined) {
    return <QrCode value={`lightning:${invoice}`} label={t('invoice.qr')} className="note-card-qr" />;
  }
  const pay = async () => {
    const ok = await confirmDialog({
      title: t('invoice.confirmTitle'),
      message: t('invoice.confirmMessage', { amount: (info.sats ?? 0).toLocaleString(locale), wallet: payer.name }),
      confirmLabel: t('invoice.pay'),
    });
    if (!ok) return;
    setState('paying');
    // WebLN pays in this tab; an NWC connection in the worker.
    const result =
      payer.kind === 'webln'
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
  return (
    <button type="button" className="button note-card-pay" disabled={state === 'paying'} onClick={() => void pay()}>
      {t('invoice.pay')}
    </button>
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
