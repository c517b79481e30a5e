import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { registerNamespace } from '../../i18n';
import hu from '../../../locales/hu/pages.json';
import en from '../../../locales/en/pages.json';
import '../../styles/pages.css';

registerNamespace('pages', { hu, en });

export interface DocSection {
  id: string;
  title: string;
  body: string[];
}

/** The sections of a document page (pages namespace, `<page>.sections`). */
export function useSections(page: string): DocSection[] {
  const { t } = useTranslation('pages');
  const value = t(`${page}.sections`, { returnObjects: true }) as unknown;
  return Array.isArray(value) ? (value as DocSection[]) : [];
}

/** A link to /help#forraskod lands on that section even though the page was just rendered. */
function useScrollToHash(ready: boolean) {
  useEffect(() => {
    if (!ready) return;
    const id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    // After the shell's own scroll-to-top on navigation.
    const timer = window.setTimeout(() => {
      const target = document.getElementById(id);
      if (!target) return;
      target.scrollIntoView({ block: 'start' });
      target.focus({ preventScroll: true });
    }, 60);
    return () => window.clearTimeout(timer);
  }, [ready]);
}

export function TableOfContents({ sections }: { sections: DocSection[] }) {
  const { t } = useTranslation('pages');
  return (
    <nav className="doc-toc" aria-labelledby="doc-toc-title">
      <h2 id="doc-toc-title" className="doc-toc-title">
        {t('common.toc')}
      </h2>
      <ol>
        {sections.map((s) => (
          <li key={s.id}>
            <a href={`#${s.id}`}>{s.title}</a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function DocBody({ sections }: { sections: DocSection[] }) {
  useScrollToHash(sections.length > 0);
  return (
    <>
      {sections.map((s) => (
        <section key={s.id} id={s.id} className="doc-section" aria-labelledby={`${s.id}-title`} tabIndex={-1}>
          <h2 id={`${s.id}-title`} className="doc-section-title">
            {s.title}
          </h2>
          {s.body.map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </section>
      ))}
    </>
  );
}

const DOCUMENTS = [
  { href: '/terms', key: 'terms' },
  { href: '/privacy', key: 'privacy' },
  { href: '/csae-policy', key: 'csaePolicy' },
  { href: '/support', key: 'support' },
  { href: '/help', key: 'help' },
] as const;

/** Links to the other information documents (not the one being read). */
export function RelatedDocs({ current }: { current: string }) {
  const { t } = useTranslation('pages');
  return (
    <nav className="doc-related" aria-label={t('common.related')}>
      <h2 className="doc-related-title">{t('common.related')}</h2>
      <ul>
        {DOCUMENTS.filter((d) => d.key !== current).map((d) => (
          <li key={d.key}>
            <Link href={d.href}>{t(`${d.key}.title`)}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
