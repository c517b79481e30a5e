import InfoPage, { SearchPage } from './InfoPage';

/** /search and /search/{query}. */
export default function SearchRoute() {
  return <SearchPage />;
}

/** /feeds and /feeds/{query}: the feed query test. */
export function FeedsRoute() {
  return <InfoPage page="feeds" />;
}
