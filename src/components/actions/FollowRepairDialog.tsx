/**
 * Spec §9: a follow list is published with at least 2 contacts. When a change would leave fewer,
 * the account waits here: the list may not have loaded, and publishing it could wipe the follows.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accountAction } from '../../lib/account';
import { Modal } from '../Modal';
import { MENU_NS } from './menuI18n';
import '../../styles/action-menu.css';

export default function FollowRepairDialog() {
  const { t } = useTranslation(MENU_NS);
  const [busy, setBusy] = useState(false);

  // The account answers every open tab at once; the dialog closes when the snapshot says so.
  const answer = (confirm: boolean) => {
    if (busy) return;
    setBusy(true);
    void accountAction({ type: 'repairFollows', confirm }).finally(() => setBusy(false));
  };

  return (
    <Modal
      title={t('repair.title')}
      className="modal-narrow follow-repair"
      onClose={() => answer(false)}
      initialFocus="[data-repair='cancel']"
      footer={
        <>
          <button type="button" className="button button-secondary" data-repair="cancel" disabled={busy} onClick={() => answer(false)}>
            {t('repair.cancel')}
          </button>
          <button type="button" className="button button-danger" data-confirm="yes" disabled={busy} onClick={() => answer(true)}>
            {t('repair.publish')}
          </button>
        </>
      }
    >
      <p className="confirm-message">{t('repair.message')}</p>
      <p className="confirm-message follow-repair-question">{t('repair.question')}</p>
    </Modal>
  );
}
