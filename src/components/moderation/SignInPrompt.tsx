import { useTranslation } from 'react-i18next';
import { openLogin } from '../../lib/overlays';

/** Shown instead of a list page's controls to a guest. */
export function SignInPrompt({ text }: { text?: string }) {
  const { t } = useTranslation('moderation');
  return (
    <div className="mod-signin">
      <p>{text ?? t('signInPrompt')}</p>
      <button type="button" className="button" onClick={openLogin}>
        {t('signIn')}
      </button>
    </div>
  );
}
