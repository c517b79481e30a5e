import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CacheObject } from '../../../core/types';
import { contentOf, ofKind, signed } from './membership';
import { RebroadcastPanel } from './RebroadcastPanel';
import { useRequest } from '../../lib/useWorkerRequest';
import { CacheKind } from '../../../core/kinds';

const NO_STATS: { kind: number; cnt: number }[] = [];

const PAGE = 500;
const NAMED = new Set([0, 1, 3, 6, 7, 10000, 10002, 10003, 30023]);

/** Content backup: choose kinds, fetch the events page by page with progress, then download one JSON file. */
export default function BackupStep() {
  const { t } = useTranslation('premium');
  const { data, error: statsError } = useRequest(() => signed('membership_content_stats').then((reply) => contentOf<{ kind: number; cnt: number }[]>(ofKind(reply, CacheKind.CONTENT_STATS)) ?? []), []);
  const stats = data ?? (statsError !== undefined ? NO_STATS : null);
  // Every kind starts chosen; the person's ticks replace that.
  const [picked, setChosen] = useState<Set<number> | null>(null);
  const chosen = useMemo(() => picked ?? new Set((stats ?? []).map((x) => x.kind)), [picked, stats]);
  const [state, setState] = useState<'idle' | 'running' | 'done' | 'error'>('idle');
  const [done, setDone] = useState(0);
  const [error, setError] = useState('');
  const [href, setHref] = useState('');
  const stop = useRef(false);

  useEffect(
    () => () => {
      stop.current = true;
    },
    [],
  );
  useEffect(() => () => (href ? URL.revokeObjectURL(href) : undefined), [href]);

  const label = (kind: number) => (NAMED.has(kind) ? t(`backup.kindNames.${kind}`) : t('backup.kindNames.other', { kind }));
  const start = async () => {
    setState('running');
    setDone(0);
    setError('');
    const kinds = [...chosen];
    const events: CacheObject[] = [];
    try {
      for (let offset = 0; !stop.current; offset += PAGE) {
        const reply = await signed('membership_content_backup', { kinds, since: 0, limit: PAGE, offset });
        const page = reply.events.filter((e) => typeof e.id === 'string');
        events.push(...page);
        setDone(events.length);
        if (page.length < PAGE) break;
      }
      const blob = new Blob([JSON.stringify(events, null, 1)], { type: 'application/json' });
      setHref(URL.createObjectURL(blob));
      setState('done');
    } catch (err) {
      setError(err instanceof Error ? err.message : '');
      setState('error');
    }
  };

  return (
    <section className="premium-step" aria-labelledby="premium-backup-heading">
      <h2 id="premium-backup-heading">{t('backup.heading')}</h2>
      <p>{t('backup.text')}</p>
      {stats === null && <p role="status">{t('loading')}</p>}
      {stats && stats.length > 0 && (
        <fieldset>
          <legend>{t('backup.kinds')}</legend>
          {stats.map((s) => (
            <label key={s.kind} className="premium-check">
              <input
                type="checkbox"
                checked={chosen.has(s.kind)}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.target.checked) next.add(s.kind);
                  else next.delete(s.kind);
                  setChosen(next);
                }}
              />{' '}
              {t('backup.kind', { label: label(s.kind), count: s.cnt })}
            </label>
          ))}
        </fieldset>
      )}
      <button type="button" className="button" disabled={state === 'running' || chosen.size === 0} onClick={() => void start()}>
        {t('backup.start')}
      </button>
      {chosen.size === 0 && stats && <p className="premium-muted">{t('backup.noKinds')}</p>}
      {state !== 'idle' && (
        <p role="status" data-testid="premium-backup-progress">
          {t('backup.progress', { done })}
        </p>
      )}
      {state === 'error' && <p role="alert">{t('backup.failed', { reason: error })}</p>}
      {state === 'done' && href && (
        <a className="button" href={href} download="strucc-mentes.json" data-testid="premium-backup-download">
          {t('backup.download', { count: done })}
        </a>
      )}
      <RebroadcastPanel kinds={[...chosen]} />
    </section>
  );
}
