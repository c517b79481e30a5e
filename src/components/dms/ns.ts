/** The messages screen's texts, loaded with its chunk. */
import { registerNamespace } from '../../i18n';
import hu from '../../../locales/hu/dms.json';
import en from '../../../locales/en/dms.json';

export const DMS_NS = 'dms';
registerNamespace(DMS_NS, { hu, en });
