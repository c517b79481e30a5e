/** The settings pages' own strings (namespace 'settings'), loaded with their chunks. */
import { registerNamespace } from '../../i18n';
import hu from '../../../locales/hu/settings.json';
import en from '../../../locales/en/settings.json';

export const SETTINGS_NS = 'settings';
registerNamespace(SETTINGS_NS, { hu, en });
