/** The 'login' namespace: login, PIN, getting started, the /new wizard and the account page. */
import { registerNamespace } from '../../i18n';
import hu from '../../../locales/hu/login.json';
import en from '../../../locales/en/login.json';

registerNamespace('login', { hu, en });
