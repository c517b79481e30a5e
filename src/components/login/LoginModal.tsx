import { Modal } from '../Modal';
// Replaced by the login helper's real modal.
export default function LoginModal({ onClose }: { onClose: () => void }) {
  return <Modal title="" onClose={onClose}>{null}</Modal>;
}
