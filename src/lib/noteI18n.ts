import hu from '../../locales/hu/note.json';
import en from '../../locales/en/note.json';
import { registerNamespace, useFixedT } from '../i18n';

// Note cards appear on every screen, so their namespace is registered with the shared components.
registerNamespace('note', { hu, en });

export const NOTE_NS = 'note';

/** The note card's components draw several times over per screen: they share one fixed t (useFixedT). */
export const useCardT = useFixedT;
