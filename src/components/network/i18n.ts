/** The 'network' namespace: the network settings and the developer tools. */
import { registerNamespace } from '../../i18n';
import hu from '../../../locales/hu/network.json';
import en from '../../../locales/en/network.json';

registerNamespace('network', { hu, en });
