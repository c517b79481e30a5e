import { ReadsPage } from './InfoPage';

/** /reads/{topic?}. */
export default function ReadsRoute() {
  return <ReadsPage />;
}
