/** The action bar with its own reactions modal, for places that are not a note card (articles). */
import { lazy, Suspense, useState } from 'react';
import type { FeedNote, ReactionTab } from '../../../core/types';
import { NoteStats } from '../NoteStats';
// The counts' buttons are styled with the note card's; a reads list may not have loaded them yet.
import '../../styles/note.css';
import '../../styles/note-cards.css';

const ReactionsModal = lazy(() => import('../ReactionsModal'));

export function NoteActionsRow({ note }: { note: FeedNote }) {
  const [tab, setTab] = useState<ReactionTab | null>(null);
  return (
    <>
      <NoteStats stats={note.stats} actions={note.actions} onOpen={setTab} note={note} />
      {tab && (
        <Suspense fallback={null}>
          <ReactionsModal note={note} initialTab={tab} onClose={() => setTab(null)} />
        </Suspense>
      )}
    </>
  );
}
