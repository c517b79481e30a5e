import InfoPage from './InfoPage';

/** /a/{naddr}: one long-form article. */
export default function ArticleRoute() {
  return <InfoPage page="thread" />;
}
