/**
 * The message box under a conversation: Enter sends, Shift+Enter breaks the line. The note
 * composer's pieces are reused as they are: the draft (kept in the account record under
 * `dm:<pubkey>`, so it survives reload and tab close), '@' mentions and the emoji picker.
 */
import { useId, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmojiUse, Profile } from '../../../core/types';
import { accountAction } from '../../lib/account';
import { EmojiPicker } from '../composer/EmojiPicker';
import { MentionList, mentionOptionId } from '../composer/MentionList';
import { useAutoGrow } from '../composer/useAutoGrow';
import { useDraft } from '../composer/useDraft';
import { insertMention, useMention, type MentionMatch } from '../composer/useMention';
import '../composer/ns';
import { DMS_NS } from './ns';

/** The draft key of a conversation in the account's noteDraft map (note drafts use event ids or 'root'). */
export const dmDraftKey = (peer: string) => `dm:${peer}`;

export function DmComposer({ peer, disabled, onSend, protocol }: { peer: string; disabled: boolean; onSend: (text: string) => void; protocol?: 'nip17' | 'nip04' }) {
  const { t } = useTranslation(DMS_NS);
  const id = useId();
  const listId = `${id}-mentions`;
  const area = useRef<HTMLTextAreaElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const draft = useDraft(dmDraftKey(peer));
  const { text, setText } = draft;

  const mention = useMention(text, (profile: Profile, match: MentionMatch) => {
    const next = insertMention(text, match, profile);
    draft.addRef(profile);
    pendingCaret.current = next.caret;
    setText(next.text);
  });

  useAutoGrow(area, pendingCaret, mention.track);

  const send = () => {
    const content = text.trim();
    if (!content || disabled) return;
    onSend(content);
    void draft.discard().catch(() => undefined);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mention.onKeyDown(e)) {
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  const pickEmoji = (emoji: EmojiUse) => {
    // Custom (NIP-30) emoji need tags a kind 4 does not carry: only their name goes in.
    const snippet = emoji.url ? `:${emoji.name}:` : emoji.name;
    const el = area.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? start;
    pendingCaret.current = start + snippet.length;
    setText(text.slice(0, start) + snippet + text.slice(end));
    void accountAction({ type: 'addEmoji', emoji }).catch(() => undefined);
  };

  const activeOption = mention.open && mention.search.users.length > 0 ? mentionOptionId(listId, mention.active) : undefined;
  return (
    <div className="dm-composer">
      <label className="visually-hidden" htmlFor={`${id}-text`}>
        {t('composer.label')}
      </label>
      <div className="composer-field dm-composer-field">
        <textarea
          ref={area}
          id={`${id}-text`}
          className="dm-textarea"
          rows={1}
          value={text}
          placeholder={t(protocol === 'nip17' ? 'composer.placeholderPrivate' : 'composer.placeholder')}
          aria-describedby={`${id}-hint`}
          aria-autocomplete="list"
          aria-controls={mention.open ? listId : undefined}
          aria-activedescendant={activeOption}
          onChange={(e) => {
            setText(e.target.value);
            mention.track(e.target.selectionStart);
          }}
          onSelect={(e) => mention.track(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
        />
        {mention.open && <MentionList id={listId} mention={mention} />}
      </div>
      <p id={`${id}-hint`} className="visually-hidden">
        {t('composer.hint')}
      </p>
      <div className="dm-composer-tools">
        <EmojiPicker onPick={pickEmoji} />
        <button type="button" className="button dm-send" onClick={send} disabled={disabled || text.trim() === ''}>
          {t('composer.send')}
        </button>
      </div>
    </div>
  );
}
