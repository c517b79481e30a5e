/** The "…" button of a note card; the menu and its dialogs load on the first click. */
import { lazy, Suspense, useRef, useState } from 'react';
import { useCardT } from '../../lib/noteI18n';
import type { FeedNote } from '../../../core/types';
import { useActingPubkey } from '../../lib/account';
import { MoreIcon } from './icons';
import type { NotePanel } from './NoteMenu';
import { ACTIONS_NS } from './state';

const NoteMenu = lazy(() => import('./NoteMenu'));

export function NoteMore({ note }: { note: FeedNote }) {
  const { t } = useCardT(ACTIONS_NS);
  const acting = useActingPubkey();
  const [panel, setPanel] = useState<NotePanel | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <span className="note-more">
      <button
        ref={button}
        type="button"
        className="note-more-button"
        aria-label={t('bar.more')}
        title={t('bar.more')}
        aria-haspopup="menu"
        aria-expanded={panel === 'menu'}
        onClick={() => setPanel((p) => (p === 'menu' ? null : 'menu'))}
      >
        <MoreIcon />
      </button>
      {panel && (
        <Suspense fallback={null}>
          <NoteMenu note={note} panel={panel} acting={acting} anchor={button} onPanel={setPanel} />
        </Suspense>
      )}
    </span>
  );
}
