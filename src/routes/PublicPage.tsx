import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import qrcode from 'qrcode-generator';
import { LogoMark } from '../components/Logo';
import { DocBody, RelatedDocs, TableOfContents, useSections } from '../components/pages/Doc';
import { usePageTitle } from '../lib/hooks';

export type PublicPageKey = 'appDownloadQr' | 'terms' | 'csaePolicy' | 'privacy' | 'support';

/** Modules of the QR code as one SVG path, drawn as React elements: no markup string is injected. */
function QrCode({ text, label }: { text: string; label: string }) {
  const { size, path } = useMemo(() => {
    const qr = qrcode(0, 'M');
    qr.addData(text);
    qr.make();
    const count = qr.getModuleCount();
    let d = '';
    for (let r = 0; r < count; r++) for (let c = 0; c < count; c++) if (qr.isDark(r, c)) d += `M${c + 4} ${r + 4}h1v1h-1z`;
    return { size: count + 8, path: d };
  }, [text]);
  return (
    <svg className="qr-code" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#ffffff" />
      <path d={path} fill="#1a1410" />
    </svg>
  );
}

function AppDownloadQr() {
  const { t } = useTranslation('pages');
  const url = `${location.origin}/`;
  const steps = t('appDownloadQr.install', { returnObjects: true }) as unknown;
  return (
    <>
      <p className="doc-lead">{t('appDownloadQr.lead')}</p>
      <figure className="qr-figure">
        <QrCode text={url} label={t('appDownloadQr.qrLabel', { url })} />
        <figcaption>
          {t('appDownloadQr.address')} <a href={url}>{url}</a>
        </figcaption>
      </figure>
      <section className="doc-section" aria-labelledby="install-title">
        <h2 id="install-title" className="doc-section-title">
          {t('appDownloadQr.installTitle')}
        </h2>
        <ol className="doc-steps">{Array.isArray(steps) && (steps as string[]).map((s) => <li key={s}>{s}</li>)}</ol>
        <p>{t('appDownloadQr.installNote')}</p>
      </section>
    </>
  );
}

function Document({ page }: { page: Exclude<PublicPageKey, 'appDownloadQr'> }) {
  const { t } = useTranslation('pages');
  const sections = useSections(page);
  return (
    <>
      <p className="doc-lead">{t(`${page}.lead`)}</p>
      <TableOfContents sections={sections} />
      <DocBody sections={sections} />
      {page === 'support' && (
        <p>
          <Link href="/premium" className="button">
            {t('support.premium')}
          </Link>
        </p>
      )}
      <RelatedDocs current={page} />
    </>
  );
}

/** Documents linked from outside the app: no navigation chrome, just the brand and the text. */
export default function PublicPage({ page }: { page: PublicPageKey }) {
  const { t } = useTranslation('pages');
  const { t: tShell } = useTranslation();
  const title = t(`${page}.title`);
  usePageTitle(title);
  return (
    <div className="public-layout">
      <header className="public-header">
        <Link href="/home" className="brand" aria-label={tShell('nav.logoLabel')}>
          <LogoMark size={40} />
          <span className="brand-name" aria-hidden="true">
            {tShell('app.name')}
          </span>
        </Link>
      </header>
      <main id="main" className="public-main doc" tabIndex={-1}>
        <h1 className="page-title">{title}</h1>
        {page === 'appDownloadQr' ? <AppDownloadQr /> : <Document page={page} />}
        <p className="doc-back">
          <Link href="/home">{t('common.backHome')}</Link>
        </p>
      </main>
    </div>
  );
}
