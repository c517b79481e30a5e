import { FeedSettings } from '../../components/feedSettings/FeedSettings';

export default function HomeFeedsSettings() {
  return <FeedSettings list="home" />;
}
