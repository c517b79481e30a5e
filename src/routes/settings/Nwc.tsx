/**
 * /settings/nwc: the account's wallet connections (NIP-47). The list and the secrets live in the
 * shared worker; this page sees names, relays and the active one, and asks for balance and
 * transactions of the connection it opens.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import '../../components/settings/i18n';
import '../../components/moderation/moderation.css';
import '../../styles/modal.css';
import '../../styles/nwc.css';
import type { PublicConnection, WalletAction, WalletDetailsResult } from '../../../core/types';
import { connect } from '../../worker-client';
import { useAccount } from '../../lib/account';
import { confirmDialog } from '../../lib/overlays';
import { toastError, toastSuccess } from '../../lib/toast';
import { SignInPrompt } from '../../components/moderation/SignInPrompt';
import { useDemoLightning, useWallet } from '../../components/wallet/useWallet';
import { chooseWebln, useWebln } from '../../lib/webln';
import { useBusy, type Run } from '../../lib/useBusy';

function errorText(t: (k: string) => string, code: string | undefined): string {
  if (code === 'invalid-uri') return t('nwc.invalidUri');
  if (code === 'duplicate') return t('nwc.duplicate');
  return t('nwc.failed');
}

function Details({ id }: { id: string }) {
  const { t, i18n } = useTranslation('settings');
  const [details, setDetails] = useState<WalletDetailsResult | null>(null);
  const [loading, setLoading] = useState(false);
  const load = async () => {
    setLoading(true);
    try {
      setDetails(await (await connect()).walletDetails(id));
    } finally {
      setLoading(false);
    }
  };
  if (!details)
    return (
      <button type="button" className="button button-secondary" disabled={loading} onClick={() => void load()}>
        {t('nwc.showBalance')}
      </button>
    );
  if ('error' in details) return <p className="mod-empty">{t('nwc.detailsFailed')}</p>;
  const fmt = new Intl.NumberFormat(i18n.language);
  return (
    <div className="nwc-details">
      <p className="nwc-balance" data-testid="nwc-balance">
        {t('nwc.balance', { sats: fmt.format(details.balanceSats) })}
      </p>
      {details.transactions.length === 0 ? (
        <p className="mod-empty">{t('nwc.noTransactions')}</p>
      ) : (
        <ul className="mod-list nwc-transactions">
          {details.transactions.map((tx, i) => (
            <li key={i} className="mod-row">
              <span>{t(tx.type === 'outgoing' ? 'nwc.outgoing' : 'nwc.incoming', { sats: fmt.format(tx.amountSats) })}</span>
              {tx.createdAt > 0 && <time dateTime={new Date(tx.createdAt * 1000).toISOString()}>{new Date(tx.createdAt * 1000).toLocaleString(i18n.language)}</time>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ConnectionRow({ c, active, busy, run }: { c: PublicConnection; active: boolean; busy: boolean; run: Run }) {
  const { t } = useTranslation('settings');
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(c.name);
  const act = (action: WalletAction) =>
    run(async () => {
      const r = await (await connect()).walletAction(action);
      if (!r.ok) toastError(errorText(t, r.code));
    });
  const remove = async () => {
    const ok = await confirmDialog({ title: t('nwc.removeTitle'), message: t('nwc.removeMessage', { name: c.name }), confirmLabel: t('nwc.remove'), danger: true });
    if (ok) await act({ type: 'remove', id: c.id });
  };
  return (
    <li className="mod-row nwc-row" data-testid="nwc-connection" data-name={c.name}>
      <div className="nwc-row-main">
        {editing ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              setEditing(false);
              void act({ type: 'rename', id: c.id, name });
            }}
          >
            <input className="form-input" aria-label={t('nwc.name')} value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
            <button type="submit" className="button" disabled={busy || !name.trim()}>
              {t('nwc.save')}
            </button>
          </form>
        ) : (
          <strong className="nwc-name">{c.name}</strong>
        )}
        {active && <span className="nwc-active-badge">{t('nwc.active')}</span>}
        <span className="nwc-relay">{c.lud16 ?? c.relays[0]}</span>
      </div>
      <div className="mod-row-actions">
        {!active && (
          <button
            type="button"
            className="button button-secondary"
            disabled={busy}
            onClick={() => {
              chooseWebln(false);
              void act({ type: 'activate', id: c.id });
            }}
          >
            {t('nwc.activate')}
          </button>
        )}
        {!editing && (
          <button type="button" className="button button-secondary" disabled={busy} onClick={() => setEditing(true)}>
            {t('nwc.rename')}
          </button>
        )}
        <button type="button" className="button button-secondary" disabled={busy} onClick={() => void remove()}>
          {t('nwc.remove')}
        </button>
      </div>
      <Details id={c.id} />
    </li>
  );
}

/**
 * The browser's own wallet (WebLN), offered beside the NWC connections when the page has one. It
 * pays in the tab; choosing it is kept in this browser, choosing a connection again turns it off.
 */
function WeblnRow() {
  const { t } = useTranslation('settings');
  const { available, active } = useWebln();
  if (!available) return null;
  return (
    <li className="mod-row nwc-row" data-testid="nwc-webln">
      <div className="nwc-row-main">
        <strong className="nwc-name">{t('nwc.weblnName')}</strong>
        {active && <span className="nwc-active-badge">{t('nwc.active')}</span>}
        <span className="nwc-relay">{t('nwc.weblnHint')}</span>
      </div>
      <div className="mod-row-actions">
        {active ? (
          <button type="button" className="button button-secondary" onClick={() => chooseWebln(false)}>
            {t('nwc.weblnOff')}
          </button>
        ) : (
          <button type="button" className="button button-secondary" onClick={() => chooseWebln(true)}>
            {t('nwc.activate')}
          </button>
        )}
      </div>
    </li>
  );
}

export default function NwcSettings() {
  const { t } = useTranslation('settings');
  const account = useAccount();
  const wallet = useWallet();
  const demo = useDemoLightning();
  const webln = useWebln();
  const [uri, setUri] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const { busy, run } = useBusy();
  if (!wallet) return <div className="settings-loading" aria-busy="true" />;
  if (wallet.state === 'none' || !account?.login.pubkey) return <SignInPrompt text={t('nwc.signIn')} />;

  const add = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const r = await (await connect()).walletAction({ type: 'add', uri, name });
      if (r.ok) {
        setUri('');
        setName('');
        setError('');
        toastSuccess(t('nwc.added'));
      } else setError(errorText(t, r.code));
    });
  };
  const connectDemo = () =>
    run(async () => {
      const r = await (await connect()).connectDemoWallet(t('nwc.demoName'));
      if (r.ok) toastSuccess(t('nwc.added'));
      else toastError(errorText(t, r.code));
    });

  return (
    <div className="mod-page nwc-page">
      <section className="mod-section" aria-labelledby="nwc-list-title">
        <h2 id="nwc-list-title" className="mod-section-title">
          {t('nwc.connections')}
        </h2>
        {wallet.state === 'loading' ? (
          <p className="mod-empty">{t('nwc.loading')}</p>
        ) : (
          <>
            {wallet.connections.length === 0 && <p className="mod-empty">{t('nwc.empty')}</p>}
            <ul className="mod-list">
              <WeblnRow />
              {wallet.connections.map((c) => (
                <ConnectionRow key={c.id} c={c} active={c.id === wallet.active && !webln.active} busy={busy} run={run} />
              ))}
            </ul>
          </>
        )}
        {wallet.saveError && <p className="mod-empty">{t('nwc.saveFailed')}</p>}
      </section>
      <section className="mod-section" aria-labelledby="nwc-add-title">
        <h2 id="nwc-add-title" className="mod-section-title">
          {t('nwc.addTitle')}
        </h2>
        {demo && (
          <p>
            <button type="button" className="button" disabled={busy} onClick={() => void connectDemo()}>
              {t('nwc.demoConnect')}
            </button>
          </p>
        )}
        <form className="nwc-add" onSubmit={add}>
          <label className="form-field">
            <span>{t('nwc.uri')}</span>
            <input className="form-input" value={uri} onChange={(e) => setUri(e.target.value)} placeholder="nostr+walletconnect://…" autoComplete="off" spellCheck={false} />
          </label>
          <label className="form-field">
            <span>{t('nwc.name')}</span>
            <input className="form-input" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
          </label>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="button" disabled={busy || !uri.trim()}>
            {t('nwc.add')}
          </button>
        </form>
      </section>
    </div>
  );
}
