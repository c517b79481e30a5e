import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmDialog } from '../../lib/overlays';
import { toastError, toastSuccess } from '../../lib/toast';
import { CopyButton } from '../embeds/CopyButton';
import { contentOf, formatBytes, formatDay, ofKind, signed, STORAGE_QUOTA_BYTES } from './membership';
import { PAGE, PageFooter, usePages } from './paging';
import { CacheKind } from '../../../core/kinds';

interface Stats {
  video: number;
  image: number;
  other: number;
}
interface Item {
  url: string;
  size: number;
  mimetype: string;
  created_at: number;
}


/** Premium media management: the member's stored files with sizes, the total against 100 GB, delete and copy. */
export default function MediaStep() {
  const { t, i18n } = useTranslation('premium');
  const locale = i18n.resolvedLanguage ?? 'hu';
  const [stats, setStats] = useState<Stats | null>(null);
  // The totals come with every page, so a delete or a new page also refreshes them.
  const fetchPage = useCallback(async (offset: number) => {
    const [s, list] = await Promise.all([
      signed('membership_media_management_stats'),
      signed('membership_media_management_uploads', { limit: PAGE, offset }),
    ]);
    setStats(contentOf<Stats>(ofKind(s, CacheKind.MEDIA_STATS)) ?? null);
    return contentOf<Item[]>(ofKind(list, CacheKind.MEDIA_LIST)) ?? [];
  }, []);
  const { items, setItems, state, more, load } = usePages(fetchPage);

  const remove = async (item: Item) => {
    const ok = await confirmDialog({ title: t('media.confirmTitle'), message: t('media.confirmMessage'), confirmLabel: t('media.delete'), danger: true });
    if (!ok) return;
    try {
      const reply = await signed('membership_media_management_delete', { url: item.url });
      setStats(contentOf<Stats>(ofKind(reply, CacheKind.MEDIA_STATS)) ?? stats);
      setItems((old) => old.filter((i) => i.url !== item.url));
      toastSuccess(t('media.deleted'));
    } catch (err) {
      toastError(t('media.deleteFailed', { reason: err instanceof Error ? err.message : '' }));
    }
  };

  const used = stats ? stats.image + stats.video + stats.other : 0;
  return (
    <section className="premium-step" aria-labelledby="premium-media-heading">
      <h2 id="premium-media-heading">{t('media.heading')}</h2>
      {stats && (
        <div className="premium-usage">
          <p data-testid="premium-media-usage">{t('media.usage', { used: formatBytes(used, locale) })}</p>
          <progress max={STORAGE_QUOTA_BYTES} value={used} aria-label={t('media.usage', { used: formatBytes(used, locale) })} />
          <p className="premium-muted">
            {t('media.images', { size: formatBytes(stats.image, locale) })} · {t('media.videos', { size: formatBytes(stats.video, locale) })} ·{' '}
            {t('media.other', { size: formatBytes(stats.other, locale) })}
          </p>
        </div>
      )}
      {state === 'ready' && items.length === 0 && <p>{t('media.empty')}</p>}
      <ul className="premium-media" data-testid="premium-media-list">
        {items.map((item) => (
          <li key={item.url} className="premium-media-item" data-testid="premium-media-item">
            {item.mimetype.startsWith('image/') ? <img src={item.url} alt="" width={64} height={64} loading="lazy" /> : <span className="premium-media-file" aria-hidden="true" />}
            <span className="premium-media-info">
              <span>{formatBytes(item.size, locale)}</span>
              <span className="premium-muted">{t('media.uploaded', { date: formatDay(item.created_at, locale) })}</span>
            </span>
            <CopyButton value={item.url} label={t('media.copy')} copiedLabel={t('media.copied')} />
            <button type="button" className="button button-secondary" onClick={() => void remove(item)}>
              {t('media.delete')}
            </button>
          </li>
        ))}
      </ul>
      <PageFooter state={state} more={more} moreLabel={t('media.more')} onLoad={() => void load(items.length)} />
    </section>
  );
}
