/**
 * A PIN set before the 6-character rule still unlocks the key; after such an unlock this notice
 * asks for a longer one without standing in the way (it can be put off until the next unlock).
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import './i18n';

export default function WeakPinNotice({ onDismiss }: { onDismiss: () => void }) {
  const { t } = useTranslation('login');
  return (
    <div className="alert weak-pin-notice" role="status">
      <p>{t('pinNotice.text')}</p>
      <div className="weak-pin-actions">
        <Link href="/settings/account#pin" className="button" onClick={onDismiss}>
          {t('pinNotice.change')}
        </Link>
        <button type="button" className="button button-secondary" onClick={onDismiss}>
          {t('pinNotice.dismiss')}
        </button>
      </div>
    </div>
  );
}
