import { memo, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArticleFields } from '../../lib/article';
import { normalizeTopics } from '../../lib/article';
import { safeImage } from '../../lib/markdown';
import { mediaUrl } from '../../lib/media';
import { ArticleBody } from '../reads/ArticleBody';
import '../../styles/article.css';

const NO_PROFILES = {};
const NO_HIGHLIGHTS: never[] = [];

function Cover({ url }: { url: string }) {
  const src = url.trim() ? safeImage(url, (u) => mediaUrl(u, 'l')) : null;
  const [broken, setBroken] = useState<string | null>(null);
  if (!src || broken === src) return null;
  return <img className="article-cover" src={src} alt="" onError={() => setBroken(src)} />;
}

/**
 * The article as readers will see it, through the same sanitising renderer as the article
 * page. Deferred, so typing stays smooth while a long body re-renders.
 */
export const ArticlePreview = memo(function ArticlePreview({ fields }: { fields: ArticleFields }) {
  const { t } = useTranslation('editor');
  const deferred = useDeferredValue(fields);
  const topics = normalizeTopics(deferred.topics);
  const empty = !deferred.title.trim() && !deferred.content.trim();
  return (
    <article className="article editor-preview-article" aria-label={t('view.previewLabel')}>
      {empty ? (
        <p className="editor-preview-empty">{t('view.previewEmpty')}</p>
      ) : (
        <>
          <Cover url={deferred.image} />
          <h2 className="article-title">{deferred.title.trim() || t('view.untitled')}</h2>
          {deferred.summary.trim() && <p className="article-summary">{deferred.summary}</p>}
          {topics.length > 0 && (
            <ul className="article-topics">
              {topics.map((topic) => (
                <li key={topic}>
                  <span className="chip">#{topic}</span>
                </li>
              ))}
            </ul>
          )}
          <ArticleBody content={deferred.content} profiles={NO_PROFILES} highlights={NO_HIGHLIGHTS} />
        </>
      )}
    </article>
  );
});
