import { FeedSettings } from '../../components/feedSettings/FeedSettings';

export default function ReadsFeedsSettings() {
  return <FeedSettings list="reads" />;
}
