/**
 * Explore's panels: the network's numbers, live from net_stats (pushed five times a second until
 * CLOSE), and the legend counters of explore_legend_counts for a signed-in user.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CacheObject } from '../../../core/types';
import { Comlink, tabId } from '../../worker-client';
import { useWorkerWatch } from '../../lib/useWorkerWatch';
import { useLoad } from './useExplore';
import { CacheKind } from '../../../core/kinds';

const NET_KEYS = ['users', 'pubkeys', 'pubnotes', 'reactions', 'reposts', 'zaps', 'satszapped', 'any'] as const;
type NetStats = Record<(typeof NET_KEYS)[number], number>;
const LEGEND_KEYS = ['your_follows', 'your_inner_network', 'your_outer_network', 'all_users'] as const;

/** Numbers change five times a second; the page repaints at most this often. */
const REPAINT_MS = 1000;

function parseNumbers<K extends string>(content: string | undefined, keys: readonly K[]): Record<K, number> | undefined {
  if (!content) return undefined;
  try {
    const c = JSON.parse(content) as Record<string, unknown>;
    const out = {} as Record<K, number>;
    for (const k of keys) {
      const n = Number(c[k]);
      out[k] = Number.isFinite(n) ? n : 0;
    }
    return out;
  } catch {
    return undefined;
  }
}

function useNetStats(): NetStats | undefined {
  const [stats, setStats] = useState<NetStats>();
  // Pushes land here and are painted once a second: net_stats pushes faster than a person reads.
  const latest = useRef<{ value?: NetStats; shown: string }>({ shown: '' });
  const paint = useCallback(() => {
    const { value, shown } = latest.current;
    const key = JSON.stringify(value);
    if (value && key !== shown) {
      latest.current.shown = key;
      setStats(value);
    }
  }, []);
  useEffect(() => {
    const timer = window.setInterval(paint, REPAINT_MS);
    return () => window.clearInterval(timer);
  }, [paint]);
  useWorkerWatch<never>(
    (api) =>
      api.subscribe(
        tabId,
        'net_stats',
        {},
        Comlink.proxy((e: CacheObject) => {
          if (e.kind !== CacheKind.NET_STATS) return;
          const first = latest.current.value === undefined;
          latest.current.value = parseNumbers(e.content, NET_KEYS) ?? latest.current.value;
          if (first) paint();
        }),
      ),
    (api, h) => api.unsubscribe(h),
  );
  return stats;
}

export function NetStatsPanel() {
  const { t, i18n } = useTranslation('explore');
  const stats = useNetStats();
  const fmt = new Intl.NumberFormat(i18n.language === 'hu' ? 'hu-HU' : 'en-US');
  return (
    <section className="explore-panel" aria-labelledby="net-stats-title" aria-busy={!stats}>
      <h2 id="net-stats-title" className="explore-panel-title">
        {t('netStats.title')} <span className="live-dot" aria-hidden="true" />
        <span className="visually-hidden">{t('netStats.live')}</span>
      </h2>
      <dl className="stat-grid" data-testid="net-stats">
        {NET_KEYS.map((k) => (
          <div key={k} className="stat">
            <dt>{t(`netStats.${k}`)}</dt>
            <dd data-stat={k}>{stats ? fmt.format(stats[k]) : '–'}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function LegendStatsPanel({ viewer }: { viewer: string | undefined }) {
  const { t, i18n } = useTranslation('explore');
  const { state } = useLoad(viewer ?? '', async (api) => {
    if (!viewer) return undefined;
    const reply = await api.request('explore_legend_counts', { pubkey: viewer });
    return parseNumbers(reply.events.find((e) => e.kind === CacheKind.LEGEND_COUNTS)?.content, LEGEND_KEYS);
  });
  const fmt = new Intl.NumberFormat(i18n.language === 'hu' ? 'hu-HU' : 'en-US');
  const counts = state.status === 'ready' ? state.value : undefined;
  return (
    <section className="explore-panel" aria-labelledby="legend-stats-title">
      <h2 id="legend-stats-title" className="explore-panel-title">
        {t('legend.title')}
      </h2>
      {!viewer ? (
        <p className="explore-panel-text">{t('legend.guest')}</p>
      ) : counts ? (
        <dl className="stat-grid" data-testid="legend-stats">
          {LEGEND_KEYS.map((k) => (
            <div key={k} className="stat">
              <dt>{t(`legend.${k}`)}</dt>
              <dd>{fmt.format(counts[k])}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="explore-panel-text" role="status">
          {state.status === 'loading' ? t('legend.loading') : t('legend.unavailable')}
        </p>
      )}
    </section>
  );
}
