import { Modal } from '../Modal';
// Replaced by the settings helper's real marketplace.
export default function FeedMarketplace({ onClose }: { list: 'home' | 'reads'; onClose: () => void }) {
  return <Modal title="" onClose={onClose}>{null}</Modal>;
}
