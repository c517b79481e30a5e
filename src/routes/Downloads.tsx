import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { MobileRelease, ReleasesSnapshot } from '../../core/types';
import { connect } from '../worker-client';
import { usePageTitle } from '../lib/hooks';
import { remote, useReleases } from '../components/notifications/badges';
import { DocBody, RelatedDocs, TableOfContents, useSections } from '../components/pages/Doc';
import { StatusMessage } from '../components/StatusMessage';

type Platform = 'ios' | 'android';
const PLATFORMS: Platform[] = ['ios', 'android'];

/** Whether a release is newer than what the user acknowledged (the versions are dotted numbers). */
function isNewer(version: string, acknowledged: string | undefined): boolean {
  if (!acknowledged) return true;
  const a = version.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const b = acknowledged.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return false;
}

/**
 * The releases as they were when the page opened: the page marks them seen (the badge goes
 * away), but still labels what was new on this visit.
 */
function useAcknowledgedOnView(snapshot: ReleasesSnapshot | null): Set<Platform> {
  const [fresh, setFresh] = useState<Set<Platform>>(new Set());
  const done = useRef(false);
  useEffect(() => {
    if (!snapshot || done.current || (!snapshot.ios && !snapshot.android)) return;
    done.current = true;
    const news = new Set<Platform>();
    for (const p of PLATFORMS) {
      const release = snapshot[p];
      if (release && isNewer(release.version, snapshot.acknowledged[p])) news.add(p);
    }
    setFresh(news);
    if (snapshot.badge) void connect().then((api) => remote(api).acknowledgeRelease());
  }, [snapshot]);
  return fresh;
}

function ReleaseCard({ platform, release, isNew }: { platform: Platform; release: MobileRelease; isNew: boolean }) {
  const { t, i18n } = useTranslation('pages');
  const locale = i18n.resolvedLanguage ?? 'hu';
  return (
    <li className="release-card" data-platform={platform}>
      <h3 className="release-platform">
        {t(`downloads.platform.${platform}`)}
        {isNew && <span className="release-new">{t('downloads.new')}</span>}
      </h3>
      <p className="release-version">{t('downloads.version', { version: release.version })}</p>
      <p className="release-date">
        <time dateTime={new Date(release.date * 1000).toISOString()}>
          {t('downloads.released', { date: new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(new Date(release.date * 1000)) })}
        </time>
      </p>
    </li>
  );
}

/** /downloads (and /download, redirected). */
export default function DownloadsRoute() {
  const { t } = useTranslation('pages');
  usePageTitle(t('downloads.title'));
  const snapshot = useReleases();
  const fresh = useAcknowledgedOnView(snapshot);
  const releases = PLATFORMS.flatMap((p) => {
    const r = snapshot?.[p];
    return r ? [{ platform: p, release: r }] : [];
  });
  // The worker answers at once with what it has; an empty first snapshot may still fill in.
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setWaited(true), 4000);
    return () => window.clearTimeout(timer);
  }, []);

  return (
    <div className="page doc-page">
      <header className="page-header">
        <h1 className="page-title">{t('downloads.title')}</h1>
      </header>
      <div className="doc">
        <p className="doc-lead">{t('downloads.lead')}</p>
        <section className="doc-section" aria-labelledby="releases-title">
          <h2 id="releases-title" className="doc-section-title">
            {t('downloads.releasesTitle')}
          </h2>
          {releases.length > 0 ? (
            <>
              <ul className="release-list">
                {releases.map(({ platform, release }) => (
                  <ReleaseCard key={platform} platform={platform} release={release} isNew={fresh.has(platform)} />
                ))}
              </ul>
              <p>{t('downloads.storeHint')}</p>
            </>
          ) : waited ? (
            <StatusMessage title={t('downloads.none')} />
          ) : (
            <p role="status">{t('downloads.loading')}</p>
          )}
        </section>
        <section className="doc-section" aria-labelledby="web-title">
          <h2 id="web-title" className="doc-section-title">
            {t('downloads.webTitle')}
          </h2>
          <p>{t('downloads.web')}</p>
          <p>
            <Link href="/app-download-qr" className="button">
              {t('downloads.webLink')}
            </Link>
          </p>
        </section>
      </div>
    </div>
  );
}

/** /help: getting started, keys, signers, relays, the cache server, zaps; with a table of contents. */
export function HelpRoute() {
  const { t } = useTranslation('pages');
  usePageTitle(t('help.title'));
  const sections = useSections('help');
  return (
    <div className="page doc-page">
      <header className="page-header">
        <h1 className="page-title">{t('help.title')}</h1>
      </header>
      <div className="doc">
        <p className="doc-lead">{t('help.lead')}</p>
        <TableOfContents sections={sections} />
        <DocBody sections={sections} />
        <RelatedDocs current="help" />
      </div>
    </div>
  );
}
