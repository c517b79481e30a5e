/** The premium lists' paging (20 a page, spec): loading pages, and the list's end with retry or "more". */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export const PAGE = 20;

export type PageState = 'loading' | 'ready' | 'error';

/**
 * The pages of a list, the first loaded at once and again whenever `fetchPage` changes (memoise it
 * with its inputs); `load(items.length)` appends the next page.
 */
export function usePages<T>(fetchPage: (offset: number) => Promise<T[]>) {
  const [items, setItems] = useState<T[]>([]);
  const [state, setState] = useState<PageState>('loading');
  const [more, setMore] = useState(false);
  const load = useCallback(
    async (offset: number) => {
      setState('loading');
      try {
        const page = await fetchPage(offset);
        setItems((old) => (offset === 0 ? page : [...old, ...page]));
        setMore(page.length === PAGE);
        setState('ready');
      } catch {
        setState('error');
      }
    },
    [fetchPage],
  );
  useEffect(() => {
    void load(0);
  }, [load]);
  return { items, setItems, state, more, load };
}

export function PageFooter({ state, more, moreLabel, onLoad }: { state: string; more: boolean; moreLabel: string; onLoad: () => void }) {
  const { t } = useTranslation('premium');
  if (state === 'error') {
    return (
      <p role="alert">
        {t('loadFailed')}{' '}
        <button type="button" className="button button-secondary" onClick={onLoad}>
          {t('retry')}
        </button>
      </p>
    );
  }
  if (!more || state !== 'ready') return null;
  return (
    <button type="button" className="button button-secondary" onClick={onLoad}>
      {moreLabel}
    </button>
  );
}
