/** The end of a paged premium list: a retry after a failed page, else "more" while pages remain. */
import { useTranslation } from 'react-i18next';

export function PageFooter({ state, more, moreLabel, onLoad }: { state: string; more: boolean; moreLabel: string; onLoad: () => void }) {
  const { t } = useTranslation('premium');
  if (state === 'error') {
    return (
      <p role="alert">
        {t('loadFailed')}{' '}
        <button type="button" className="button button-secondary" onClick={onLoad}>
          {t('retry')}
        </button>
      </p>
    );
  }
  if (!more || state !== 'ready') return null;
  return (
    <button type="button" className="button button-secondary" onClick={onLoad}>
      {moreLabel}
    </button>
  );
}
