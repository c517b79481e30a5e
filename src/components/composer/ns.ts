import hu from '../../../locales/hu/composer.json';
import en from '../../../locales/en/composer.json';
import { registerNamespace } from '../../i18n';
import './composer.css';

// Imported first by each lazily loaded entry (the modal, the inline reply), so the strings and styles travel in their chunk.
registerNamespace('composer', { hu, en });
