import type { ComposerRequest } from '../../lib/overlays';
import { Modal } from '../Modal';
// Replaced by the composer helper's real form.
export default function Composer({ onClose }: { request: ComposerRequest; onClose: () => void }) {
  return <Modal title="" onClose={onClose}>{null}</Modal>;
}
