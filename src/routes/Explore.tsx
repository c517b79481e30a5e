import InfoPage from './InfoPage';

/** /explore. */
export default function ExploreRoute() {
  return <InfoPage page="explore" />;
}

/** /explore/feed/{id}. */
export function ExploreFeedRoute() {
  return <InfoPage page="exploreFeed" />;
}
