/** The repost button's menu (its own chunk): repost at once, or quote in the new note form. */
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeedNote } from '../../../core/types';
import { repostEvent } from '../../lib/noteActions';
import { openComposer } from '../../lib/overlays';
import { toastError, toastSuccess } from '../../lib/toast';
import { RepostIcon } from '../Icons';
import { QuoteIcon } from './icons';
import { Menu } from './Menu';
import { MENU_NS } from './menuI18n';
import { publishEvent } from './publish';
import { markReposted } from './state';

export interface RepostMenuProps {
  note: FeedNote;
  anchor: RefObject<HTMLElement | null>;
  onClose: () => void;
}

export default function RepostMenu({ note, anchor, onClose }: RepostMenuProps) {
  const { t } = useTranslation(MENU_NS);

  const repost = async () => {
    const id = note.event.id;
    markReposted(id, true);
    const result = await publishEvent(repostEvent(note.event, note.relayHint ?? ''));
    if (result.success) {
      toastSuccess(t('toast.repostOk'));
    } else {
      markReposted(id, undefined);
      toastError(t('toast.repostFailed'));
    }
  };

  return (
    <Menu
      label={t('repost.label')}
      anchor={anchor}
      onClose={onClose}
      className="repost-menu"
      items={[
        { key: 'repost', label: t('repost.repost'), Icon: RepostIcon, onSelect: () => void repost() },
        { key: 'quote', label: t('repost.quote'), Icon: QuoteIcon, onSelect: () => openComposer({ quote: note }) },
      ]}
    />
  );
}
