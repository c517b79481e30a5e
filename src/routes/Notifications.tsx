import InfoPage from './InfoPage';

/** /notifications. */
export default function NotificationsRoute() {
  return <InfoPage page="notifications" />;
}
