import { memo, useLayoutEffect, useMemo, useRef, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { Profile } from '../../../core/types';
import { displayName } from '../../../core/profile';
import { markHighlights, renderMarkdown, unmarkHighlights } from '../../lib/markdown';
import { mediaUrl } from '../../lib/media';
import { config } from '../../worker-client';
import '../../styles/article.css';

export interface HighlightPassage {
  text: string;
  count: number;
}

interface ArticleBodyProps {
  content: string;
  profiles: Record<string, Profile>;
  highlights: HighlightPassage[];
}

/** The Markdown body, sanitised (src/lib/markdown.ts), with highlighted passages marked. */
export const ArticleBody = memo(function ArticleBody({ content, profiles, highlights }: ArticleBodyProps) {
  const { t } = useTranslation('reads');
  const [, navigate] = useLocation();
  const ref = useRef<HTMLDivElement>(null);
  const html = useMemo(() => {
    const names: Record<string, string> = {};
    for (const [pk, p] of Object.entries(profiles)) names[pk] = displayName(p);
    return renderMarkdown(content, { media: (u) => mediaUrl(u, 'l'), names, mediaPrefix: `${config.mediaServer}/media-cache?` });
  }, [content, profiles]);

  useLayoutEffect(() => {
    const root = ref.current;
    if (!root) return;
    // Unmarking in place instead of writing the HTML again keeps the images loaded and the nodes a reader may hold.
    unmarkHighlights(root);
    if (highlights.length === 0) return;
    markHighlights(root, highlights, (count) => t('highlights.marked', { count }));
  }, [html, highlights, t]);

  // In-app links (nostr: mentions) go through the router instead of reloading the page.
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest('a[data-route]');
    const href = link?.getAttribute('href');
    if (!href || !href.startsWith('/')) return;
    event.preventDefault();
    navigate(href);
  };

  return <div ref={ref} className="article-body" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
});
