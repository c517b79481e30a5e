/**
 * The note context menu (its own chunk, loaded on the first "…" click): the copy items, broadcast,
 * mute and report the author, delete one's own note. Mute, report and delete ask first.
 */
import type { RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { FeedNote } from '../../../core/types';
import { displayName } from '../../../core/profile';
import { accountAction } from '../../lib/account';
import { broadcastPayload, deletionEvent, noteId, noteLink, rawData, threadRootOf } from '../../lib/noteActions';
import { confirmDialog, openLogin } from '../../lib/overlays';
import { toastError, toastSuccess } from '../../lib/toast';
import { copyText } from './clipboard';
import { npubOf } from '../../lib/links';
import { BroadcastIcon, CodeIcon, CopyIcon, FlagIcon, HashIcon, LinkIcon, MuteIcon, TrashIcon, UserIcon } from './icons';
import { Menu, type MenuItem } from './Menu';
import { MENU_NS } from './menuI18n';
import { publishEvent } from './publish';
import { ReportDialog } from './ReportDialog';
import { hideDeleted } from './state';

export type NotePanel = 'menu' | 'report';

export interface NoteMenuProps {
  note: FeedNote;
  panel: NotePanel;
  /** The signed-in user who can sign; undefined for guests and read-only logins. */
  acting: string | undefined;
  anchor: RefObject<HTMLElement | null>;
  onPanel: (panel: NotePanel | null) => void;
}

export default function NoteMenu({ note, panel, acting, anchor, onPanel }: NoteMenuProps) {
  const { t } = useTranslation(MENU_NS);
  const { event } = note;
  const name = displayName(note.author);
  const own = acting !== undefined && acting === event.pubkey;

  const copy = (text: () => string, done: string) => async () => {
    let value: string;
    try {
      value = text();
    } catch {
      toastError(t('toast.copyFailed'));
      return;
    }
    if (await copyText(value)) toastSuccess(t(done));
    else toastError(t('toast.copyFailed'));
  };

  /** Spec §6: a visitor cannot act; the login modal opens instead. */
  const signedIn = (run: () => void) => () => (acting ? run() : openLogin());

  const broadcast = async () => {
    let signed;
    try {
      signed = broadcastPayload(event);
    } catch {
      toastError(t('toast.broadcastFailed'));
      return;
    }
    const result = await publishEvent(signed);
    if (result.success) toastSuccess(t('toast.broadcastOk'));
    else toastError(t('toast.broadcastFailed'));
  };

  const mute = async () => {
    const ok = await confirmDialog({ title: t('mute.title'), message: t('mute.message', { name }), confirmLabel: t('mute.confirm'), danger: true });
    if (!ok) return;
    const result = await accountAction({ type: 'mute', pubkey: event.pubkey }).catch(() => ({ ok: false }));
    if (result.ok) toastSuccess(t('toast.muted', { name }));
    else toastError(t('toast.muteFailed', { name }));
  };

  // Reversible from the muted settings page, so no confirm: a toast says what happened.
  const muteThread = async () => {
    const result = await accountAction({ type: 'muteTag', tag: ['e', threadRootOf(event)] }).catch(() => ({ ok: false }));
    if (result.ok) toastSuccess(t('toast.threadMuted'));
    else toastError(t('toast.threadMuteFailed'));
  };

  const remove = async () => {
    const ok = await confirmDialog({ title: t('delete.title'), message: t('delete.message'), confirmLabel: t('delete.confirm'), danger: true });
    if (!ok) return;
    const result = await publishEvent(deletionEvent(event));
    if (result.success) {
      hideDeleted(event.id);
      toastSuccess(t('toast.deleted'));
    } else {
      toastError(t('toast.deleteFailed'));
    }
  };

  // In the body, not in the card's header line, whose text styles (nowrap) the dialog would inherit.
  if (panel === 'report') return createPortal(<ReportDialog note={note} onClose={() => onPanel(null)} />, document.body);

  const items: MenuItem[] = [
    { key: 'copyLink', label: t('menu.copyLink'), Icon: LinkIcon, onSelect: copy(() => noteLink(event, window.location.origin, note.relayHint), 'toast.copiedLink') },
    { key: 'copyText', label: t('menu.copyText'), Icon: CopyIcon, onSelect: copy(() => event.content, 'toast.copiedText') },
    { key: 'copyId', label: t('menu.copyId'), Icon: HashIcon, onSelect: copy(() => noteId(event), 'toast.copiedId') },
    { key: 'copyRaw', label: t('menu.copyRaw'), Icon: CodeIcon, onSelect: copy(() => rawData(event), 'toast.copiedRaw') },
    { key: 'copyNpub', label: t('menu.copyNpub'), Icon: UserIcon, onSelect: copy(() => npubOf(event.pubkey), 'toast.copiedNpub') },
    { key: 'broadcast', label: t('menu.broadcast'), Icon: BroadcastIcon, onSelect: signedIn(() => void broadcast()) },
    { key: 'muteThread', label: t('menu.muteThread'), Icon: MuteIcon, onSelect: signedIn(() => void muteThread()) },
  ];
  if (own) {
    items.push({ key: 'delete', label: t('menu.delete'), Icon: TrashIcon, danger: true, onSelect: () => void remove() });
  } else {
    items.push(
      { key: 'mute', label: t('menu.mute'), Icon: MuteIcon, danger: true, onSelect: signedIn(() => void mute()) },
      { key: 'report', label: t('menu.report'), Icon: FlagIcon, danger: true, onSelect: signedIn(() => onPanel('report')) },
    );
  }

  // Menu closes itself before an item runs; the report item opens the next panel right after.
  return <Menu label={t('menu.label')} items={items} anchor={anchor} onClose={() => onPanel(null)} className="note-menu" />;
}
