/**
 * The welcome for guests: what Nostr and Strucc are in a few lines, and the two ways in —
 * creating an account or signing in. Opens on a guest's first visit and from the account chip.
 */
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { openLogin } from '../../lib/overlays';
import { Modal } from '../Modal';
import { LogoMark } from '../Logo';
import { markWelcomeSeen } from './AccountGate';
import './i18n';
import '../../styles/login.css';

export default function GettingStarted({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('login');
  const [, navigate] = useLocation();
  const close = () => {
    markWelcomeSeen();
    onClose();
  };
  return (
    <Modal
      title={t('gettingStarted.title')}
      className="getting-started"
      onClose={close}
      initialFocus="[data-autofocus]"
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={close}>
            {t('gettingStarted.later')}
          </button>
          <button type="button" className="button button-secondary" onClick={() => (markWelcomeSeen(), openLogin())}>
            {t('gettingStarted.login')}
          </button>
          <button
            type="button"
            className="button"
            data-autofocus
            onClick={() => {
              close();
              navigate('/new');
            }}
          >
            {t('gettingStarted.create')}
          </button>
        </>
      }
    >
      <div className="getting-started-body">
        <div className="getting-started-logo" aria-hidden="true">
          <LogoMark size={56} />
        </div>
        <p className="login-intro">{t('gettingStarted.lead')}</p>
        <ul className="getting-started-points">
          <li>{t('gettingStarted.point1')}</li>
          <li>{t('gettingStarted.point2')}</li>
          <li>{t('gettingStarted.point3')}</li>
        </ul>
        <p className="form-hint">{t('gettingStarted.browse')}</p>
      </div>
    </Modal>
  );
}
