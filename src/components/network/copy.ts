import i18n from '../../i18n';
import { toastError, toastSuccess } from '../../lib/toast';

export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toastSuccess(i18n.t('devtools.copied', { ns: 'network' }));
  } catch {
    toastError(i18n.t('devtools.copyFailed', { ns: 'network' }));
  }
}
