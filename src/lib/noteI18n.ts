import hu from '../../locales/hu/note.json';
import en from '../../locales/en/note.json';
import { registerNamespace } from '../i18n';

// Note cards appear on every screen, so their namespace is registered with the shared components.
registerNamespace('note', { hu, en });

export const NOTE_NS = 'note';
