import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NostrEvent } from '../../../core/types';
import { connect } from '../../worker-client';
import { confirmDialog } from '../../lib/overlays';
import { toastError, toastSuccess } from '../../lib/toast';
import { useRequest } from '../../lib/useWorkerRequest';
import { contentOf, formatDay, ofKind, signed } from './membership';
import { CacheKind } from '../../../core/kinds';

interface Version {
  event: NostrEvent;
  follows: number;
}

/** Earlier follow lists (one a day, the fullest); restoring one publishes its tags as a new kind 3. */
export default function RecoveryStep() {
  const { t, i18n } = useTranslation('premium');
  const locale = i18n.resolvedLanguage ?? 'hu';
  const { data, error } = useRequest(
    () =>
      signed('membership_recovery_contact_lists').then((reply) => {
        const summary = contentOf<{ event_id: string; follows: number }[]>(ofKind(reply, CacheKind.RECOVERY_CONTACT_LISTS)) ?? [];
        const byId = new Map(reply.events.filter((e) => e.kind === 3).map((e) => [e.id as string, e as unknown as NostrEvent]));
        return summary.flatMap((s): Version[] => {
          const event = byId.get(s.event_id);
          return event ? [{ event, follows: s.follows }] : [];
        });
      }),
    [],
  );
  const versions = data ?? null;
  const failed = error !== undefined;
  const [busy, setBusy] = useState(false);

  const restore = async (v: Version) => {
    const date = formatDay(v.event.created_at, locale);
    const ok = await confirmDialog({
      title: t('recovery.confirmTitle'),
      message: t('recovery.confirmMessage', { date, count: v.follows }),
      confirmLabel: t('recovery.restore'),
    });
    if (!ok) return;
    setBusy(true);
    try {
      // A replaceable list: the old version is signed again with today's time, or the current one would win.
      const result = await (await connect()).publish({ kind: 3, tags: v.event.tags, content: v.event.content, created_at: Math.floor(Date.now() / 1000) });
      if (!result.success) throw new Error(result.outcome);
      toastSuccess(t('recovery.restored'));
    } catch {
      toastError(t('recovery.restoreFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="premium-step" aria-labelledby="premium-recovery-heading">
      <h2 id="premium-recovery-heading">{t('recovery.heading')}</h2>
      <p>{t('recovery.text')}</p>
      {failed && <p role="alert">{t('loadFailed')}</p>}
      {versions === null && !failed && <p role="status">{t('loading')}</p>}
      {versions?.length === 0 && <p>{t('recovery.empty')}</p>}
      <ul className="premium-list" data-testid="premium-recovery-list">
        {versions?.map((v) => (
          <li key={v.event.id} data-testid="premium-recovery-item" data-follows={v.follows}>
            <span>{t('recovery.row', { date: formatDay(v.event.created_at, locale), count: v.follows })}</span>
            <button type="button" className="button button-secondary" disabled={busy} onClick={() => void restore(v)}>
              {t('recovery.restore')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
