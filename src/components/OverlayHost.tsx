/**
 * Draws whichever app-wide modal the overlays store has open, and the confirm dialog. Each modal
 * is its own chunk, fetched the first time it opens.
 */
import { lazy, Suspense } from 'react';
import { useFixedT } from '../i18n';
import { closeOverlay, settleConfirm, useOverlays } from '../lib/overlays';
import { Modal } from './Modal';
import { FollowRepairHost } from './actions/FollowRepairHost';
import { AccountGate } from './login/AccountGate';

const LoginModal = lazy(() => import('./login/LoginModal'));
const GettingStarted = lazy(() => import('./login/GettingStarted'));
const Composer = lazy(() => import('./composer/Composer'));
const FeedMarketplace = lazy(() => import('./marketplace/FeedMarketplace'));

export function OverlayHost() {
  const { t } = useFixedT();
  const { overlay, confirm } = useOverlays();
  return (
    <>
      <AccountGate />
      <FollowRepairHost />
      {overlay && (
        <Suspense fallback={null}>
          {overlay.kind === 'login' && <LoginModal onClose={closeOverlay} />}
          {overlay.kind === 'gettingStarted' && <GettingStarted onClose={closeOverlay} />}
          {overlay.kind === 'composer' && <Composer request={overlay.request} onClose={closeOverlay} />}
          {overlay.kind === 'marketplace' && <FeedMarketplace list={overlay.list} onClose={closeOverlay} />}
        </Suspense>
      )}
      {confirm && (
        <Modal
          title={confirm.title}
          className="modal-narrow confirm-dialog"
          onClose={() => settleConfirm(false)}
          footer={
            <>
              <button type="button" className="button button-secondary" onClick={() => settleConfirm(false)}>
                {confirm.cancelLabel ?? t('modal.cancel')}
              </button>
              <button
                type="button"
                className={`button${confirm.danger ? ' button-danger' : ''}`}
                data-confirm="yes"
                onClick={() => settleConfirm(true)}
              >
                {confirm.confirmLabel}
              </button>
            </>
          }
        >
          <p className="confirm-message">{confirm.message}</p>
        </Modal>
      )}
    </>
  );
}
