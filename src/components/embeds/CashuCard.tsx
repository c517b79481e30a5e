import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { decodeCashu } from '../../lib/content';
import { NOTE_NS } from '../../lib/noteI18n';
import { CopyButton } from './CopyButton';

function mintHost(mint: string): string {
  try {
    return new URL(mint).host;
  } catch {
    return mint;
  }
}

/** An ecash token written into a note: its total and mint, read from the token itself. */
export function CashuCard({ token }: { token: string }) {
  const { t, i18n } = useTranslation(NOTE_NS);
  const info = useMemo(() => decodeCashu(token), [token]);
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
      <CopyButton value={token} label={t('cashu.copy')} copiedLabel={t('cashu.copied')} />
    </section>
  );
}
