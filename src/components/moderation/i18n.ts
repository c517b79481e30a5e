/** The 'moderation' namespace: muted, content filtering and /mutelist/. */
import { registerNamespace } from '../../i18n';
import hu from '../../../locales/hu/moderation.json';
import en from '../../../locales/en/moderation.json';

registerNamespace('moderation', { hu, en });
