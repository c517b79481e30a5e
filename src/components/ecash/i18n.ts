/** The ecash wallet's strings (namespace 'ecash'): the token card on every screen, the wallet page and the pay choice. */
import { registerNamespace } from '../../i18n';
import hu from '../../../locales/hu/ecash.json';
import en from '../../../locales/en/ecash.json';

export const ECASH_NS = 'ecash';
registerNamespace(ECASH_NS, { hu, en });
