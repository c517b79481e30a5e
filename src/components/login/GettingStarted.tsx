import { Modal } from '../Modal';
// Replaced by the login helper's real modal.
export default function GettingStarted({ onClose }: { onClose: () => void }) {
  return <Modal title="" onClose={onClose}>{null}</Modal>;
}
