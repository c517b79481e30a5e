/**
 * Reporting the author of a note (spec: confirm first). The dialog is the confirmation: the
 * person picks a NIP-56 reason and presses Report; only then is the kind 1984 signed.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeedNote } from '../../../core/types';
import { displayName } from '../../../core/profile';
import { reportEvent, REPORT_REASONS, type ReportReason } from '../../lib/noteActions';
import { toastError, toastSuccess } from '../../lib/toast';
import { Modal } from '../Modal';
import { MENU_NS } from './menuI18n';
import { publishEvent } from './publish';
import '../../styles/action-menu.css';

export function ReportDialog({ note, onClose }: { note: FeedNote; onClose: () => void }) {
  const { t } = useTranslation(MENU_NS);
  const [reason, setReason] = useState<ReportReason>('spam');
  const [sending, setSending] = useState(false);
  const legendId = useId();
  const formId = useId();

  const submit = async () => {
    if (sending) return;
    setSending(true);
    const result = await publishEvent(reportEvent(note.event, reason));
    setSending(false);
    if (result.success) {
      toastSuccess(t('toast.reported'));
      onClose();
    } else {
      // The dialog stays open with the chosen reason, so trying again is one click.
      toastError(t('toast.reportFailed'));
    }
  };

  return (
    <Modal
      title={t('report.title')}
      className="modal-narrow report-dialog"
      onClose={onClose}
      initialFocus="input:checked"
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('modal.cancel', { ns: 'translation' })}
          </button>
          <button type="submit" form={formId} className="button button-danger" data-confirm="yes" disabled={sending} aria-busy={sending}>
            {sending ? t('report.sending') : t('report.confirm')}
          </button>
        </>
      }
    >
      <form
        id={formId}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <p className="confirm-message">{t('report.intro', { name: displayName(note.author) })}</p>
        <fieldset className="report-reasons" aria-labelledby={legendId}>
          <legend id={legendId} className="visually-hidden">
            {t('report.reasons')}
          </legend>
          {REPORT_REASONS.map((r) => (
            <label key={r} className="report-reason">
              <input type="radio" name="report-reason" value={r} checked={reason === r} onChange={() => setReason(r)} />
              <span>{t(`report.${r}`)}</span>
            </label>
          ))}
        </fieldset>
      </form>
    </Modal>
  );
}
