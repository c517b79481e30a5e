/** The ecash page's forms: receive a pasted token, send a token of an amount, top up from Lightning. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { EcashSnapshot } from '../../../core/types';
import { connect } from '../../worker-client';
import { toastError, toastSuccess } from '../../lib/toast';
import { CopyButton } from '../embeds/CopyButton';
import { QrCode } from '../QrCode';
import { useWallet } from '../wallet/useWallet';
import { ECASH_NS } from './i18n';
import { parsePreferences } from './preferences';
import { ecashErrorKey } from './useEcash';
import type { Run } from '../../lib/useBusy';


export function ReceiveForm({ busy, run }: { busy: boolean; run: Run }) {
  const { t } = useTranslation(ECASH_NS);
  const [token, setToken] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const r = await (await connect()).ecashReceive(token);
      if (r.ok) {
        setToken('');
        toastSuccess(t('card.redeemed', { amount: r.amount }));
      } else toastError(t(ecashErrorKey(r)));
    });
  };
  return (
    <form className="nwc-add" onSubmit={submit}>
      <label className="form-field">
        <span>{t('page.tokenLabel')}</span>
        <textarea className="form-input" rows={3} value={token} onChange={(e) => setToken(e.target.value)} spellCheck={false} autoComplete="off" />
      </label>
      <button type="submit" className="button" disabled={busy || !token.trim()}>
        {t('page.receive')}
      </button>
    </form>
  );
}

function MintSelect({ ecash, value, onChange }: { ecash: EcashSnapshot; value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation(ECASH_NS);
  return (
    <label className="form-field">
      <span>{t('page.mint')}</span>
      <select className="form-input" value={value} onChange={(e) => onChange(e.target.value)}>
        {ecash.mints.map((m) => (
          <option key={m.url} value={m.url}>
            {m.name} ({t('page.mintBalance', { sats: m.balance })})
          </option>
        ))}
      </select>
    </label>
  );
}

const parseAmount = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN);

export function SendForm({ ecash, busy, run }: { ecash: EcashSnapshot; busy: boolean; run: Run }) {
  const { t } = useTranslation(ECASH_NS);
  const [mint, setMint] = useState(ecash.mints[0]?.url ?? '');
  const [amount, setAmount] = useState('');
  const [memo, setMemo] = useState('');
  const [denominations, setDenominations] = useState('');
  const [sent, setSent] = useState<{ token: string; amount: number } | null>(null);
  const chosen = ecash.mints.some((m) => m.url === mint) ? mint : (ecash.mints[0]?.url ?? '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const sats = parseAmount(amount);
    if (!Number.isSafeInteger(sats) || sats <= 0) return toastError(t('errors.invalidAmount'));
    const preferences = parsePreferences(denominations);
    if (!preferences) return toastError(t('errors.invalidPreferences'));
    void run(async () => {
      const r = await (await connect()).ecashSend(chosen, sats, memo.trim(), preferences);
      if (r.ok) {
        setSent({ token: r.token, amount: r.amount });
        setAmount('');
        setMemo('');
      } else toastError(t(ecashErrorKey(r)));
    });
  };
  if (ecash.mints.length === 0) return <p className="mod-empty">{t('page.noMints')}</p>;
  return (
    <>
      <form className="nwc-add" onSubmit={submit}>
        <MintSelect ecash={ecash} value={chosen} onChange={setMint} />
        <label className="form-field">
          <span>{t('page.amount')}</span>
          <input className="form-input" inputMode="numeric" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </label>
        <label className="form-field">
          <span>{t('page.memo')}</span>
          <input className="form-input" maxLength={140} value={memo} onChange={(e) => setMemo(e.target.value)} />
        </label>
        <label className="form-field">
          <span>{t('page.denominations')}</span>
          <input
            className="form-input"
            placeholder={t('page.denominationsPlaceholder')}
            value={denominations}
            onChange={(e) => setDenominations(e.target.value)}
          />
        </label>
        <button type="submit" className="button" disabled={busy || !amount.trim()}>
          {t('page.send')}
        </button>
      </form>
      {sent && (
        <div className="ecash-sent" data-testid="ecash-sent-token">
          <p>{t('page.sentToken', { sats: sent.amount })}</p>
          <code className="note-card-code ecash-token-text">{sent.token}</code>
          <CopyButton value={sent.token} label={t('page.copy')} copiedLabel={t('page.copied')} />
          <QrCode value={sent.token} label={t('page.tokenQr')} className="ecash-qr" />
        </div>
      )}
    </>
  );
}

export function LightningForm({ ecash, demoMint, busy, run }: { ecash: EcashSnapshot; demoMint: string | null; busy: boolean; run: Run }) {
  const { t } = useTranslation(ECASH_NS);
  const wallet = useWallet();
  const mints = ecash.mints.length > 0 ? ecash.mints : demoMint ? [{ url: demoMint, name: demoMint, balance: 0 }] : [];
  const [mint, setMint] = useState(mints[0]?.url ?? '');
  const [amount, setAmount] = useState('');
  const [invoice, setInvoice] = useState<{ quote: string; request: string; mint: string; amount: number } | null>(null);
  const chosen = mints.some((m) => m.url === mint) ? mint : (mints[0]?.url ?? '');
  const hasNwc = !!wallet?.connections.some((c) => c.id === wallet.active);
  const sats = parseAmount(amount);
  const check = () => {
    if (!Number.isSafeInteger(sats) || sats <= 0) {
      toastError(t('errors.invalidAmount'));
      return false;
    }
    return true;
  };
  const payNwc = () =>
    check() &&
    void run(async () => {
      const r = await (await connect()).ecashMintWithNwc(chosen, sats);
      if (r.ok) {
        setAmount('');
        toastSuccess(t('page.minted', { sats: r.amount }));
      } else toastError(t(ecashErrorKey(r)));
    });
  const request = () =>
    check() &&
    void run(async () => {
      const r = await (await connect()).ecashMintQuote(chosen, sats);
      if (r.ok) setInvoice({ quote: r.quote, request: r.request, mint: chosen, amount: sats });
      else toastError(t(ecashErrorKey(r)));
    });
  const claim = () =>
    invoice &&
    void run(async () => {
      const r = await (await connect()).ecashMintClaim(invoice.mint, invoice.quote, invoice.amount);
      if (!r.ok) toastError(t(ecashErrorKey(r)));
      else if (!r.paid) toastError(t('errors.unpaid'));
      else {
        setInvoice(null);
        toastSuccess(t('page.minted', { sats: r.amount }));
      }
    });
  if (mints.length === 0) return <p className="mod-empty">{t('page.noMints')}</p>;
  return (
    <div className="nwc-add">
      <MintSelect ecash={{ ...ecash, mints }} value={chosen} onChange={setMint} />
      <label className="form-field">
        <span>{t('page.amount')}</span>
        <input className="form-input" inputMode="numeric" value={amount} onChange={(e) => setAmount(e.target.value)} />
      </label>
      <p className="ecash-actions">
        {hasNwc && (
          <button type="button" className="button" disabled={busy || !amount.trim()} onClick={payNwc}>
            {t('page.payWithNwc')}
          </button>
        )}
        <button type="button" className="button button-secondary" disabled={busy || !amount.trim()} onClick={request}>
          {t('page.createInvoice')}
        </button>
      </p>
      {invoice && (
        <div className="ecash-sent">
          <QrCode value={`lightning:${invoice.request}`} label={t('page.invoiceQr')} className="ecash-qr" />
          <code className="note-card-code ecash-token-text">{invoice.request}</code>
          <button type="button" className="button" disabled={busy} onClick={claim}>
            {t('page.checkPaid')}
          </button>
        </div>
      )}
    </div>
  );
}
