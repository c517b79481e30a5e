import InfoPage from './InfoPage';

/** /downloads (and /download, redirected). */
export default function DownloadsRoute() {
  return <InfoPage page="downloads" />;
}

/** /help. */
export function HelpRoute() {
  return <InfoPage page="help" />;
}
