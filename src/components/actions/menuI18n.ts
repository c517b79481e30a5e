import hu from '../../../locales/hu/actionsMenu.json';
import en from '../../../locales/en/actionsMenu.json';
import { registerNamespace } from '../../i18n';

// The menus' and dialogs' strings travel in their lazily loaded chunk, not with every note card.
registerNamespace('actionsMenu', { hu, en });

export const MENU_NS = 'actionsMenu';
