import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CacheObject } from '../../../core/types';
import { toastError } from '../../lib/toast';
import { tabId } from '../../worker-client';
import { useWorkerWatch } from '../../lib/useWorkerWatch';
import { useRelays } from '../network/hooks';
import { contentOf, signed } from './membership';
import { CacheKind } from '../../../core/kinds';

interface Status {
  running: boolean;
  status: 'running' | 'done' | 'cancelled' | 'failed' | 'idle';
  progress: number;
  done: number;
  total: number;
  error: string;
}

const OP = 'rebroadcasting_status';

/**
 * The server's rebroadcast job: it survives page closes and server restarts, so this panel only
 * watches its pushed status (a signed rebroadcasting_status subscription) and starts or cancels it.
 */
function useRebroadcastStatus(): Status | null {
  const [status, setStatus] = useState<Status | null>(null);
  useWorkerWatch<CacheObject>(
    async (api, cb) => {
      const ev = await api.signEvent({ kind: 30078, tags: [['d', 'Primal-Web App', OP]], content: '{}', created_at: Math.floor(Date.now() / 1000) });
      return api.subscribe(tabId, OP, { event_from_user: ev }, cb);
    },
    (api, h) => api.unsubscribe(h),
    [],
    {
      onValue: (o) => {
        if (o.kind !== CacheKind.BROADCAST_STATUS) return;
        const s = contentOf<Status>(o);
        if (s) setStatus(s);
      },
    },
  );
  return status;
}

export function RebroadcastPanel({ kinds }: { kinds: number[] }) {
  const { t } = useTranslation('premium');
  const status = useRebroadcastStatus();
  const relays = useRelays();
  const writable = (relays ?? []).filter((r) => r.write).map((r) => r.url);
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  const picked = chosen ?? new Set(writable);
  const [busy, setBusy] = useState(false);
  const run = async (command: string, params: Record<string, unknown>) => {
    setBusy(true);
    try {
      await signed(command, params);
    } catch (err) {
      toastError(err instanceof Error ? err.message : '');
    } finally {
      setBusy(false);
    }
  };
  const running = status?.running === true;
  return (
    <section className="premium-rebroadcast" aria-labelledby="premium-rebroadcast-heading">
      <h3 id="premium-rebroadcast-heading">{t('backup.rebroadcast')}</h3>
      <p>{t('backup.rebroadcastText')}</p>
      <fieldset>
        <legend>{t('backup.rebroadcastRelays')}</legend>
        {writable.map((url) => (
          <label key={url} className="premium-check">
            <input
              type="checkbox"
              checked={picked.has(url)}
              onChange={(e) => {
                const next = new Set(picked);
                if (e.target.checked) next.add(url);
                else next.delete(url);
                setChosen(next);
              }}
            />{' '}
            {url}
          </label>
        ))}
      </fieldset>
      {status && (
        <div role="status" data-testid="premium-rebroadcast-status">
          <p>
            {t(`backup.rebroadcastStatus.${status.status}`)} · {t('backup.rebroadcastProgress', { progress: Math.round(status.progress * 100) })}
          </p>
          <progress max={1} value={status.progress} />
          {status.error && <p className="form-error">{status.error}</p>}
        </div>
      )}
      {running ? (
        <button type="button" className="button button-secondary" disabled={busy} onClick={() => void run('membership_content_rebroadcast_cancel', {})}>
          {t('backup.rebroadcastCancel')}
        </button>
      ) : (
        <button type="button" className="button" disabled={busy || picked.size === 0} onClick={() => void run('membership_content_rebroadcast_start', { kinds, relays: [...picked] })}>
          {t('backup.rebroadcastStart')}
        </button>
      )}
    </section>
  );
}
