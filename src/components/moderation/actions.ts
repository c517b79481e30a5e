/** Runs an account action with its toasts: the success text, or the Hungarian reason it failed. */
import i18n from '../../i18n';
import { accountAction } from '../../lib/account';
import { toastError, toastSuccess } from '../../lib/toast';
import type { AccountAction } from '../../../core/types';
import { actionErrorKey } from './muted';

export async function runAction(action: AccountAction, success?: string): Promise<boolean> {
  try {
    const result = await accountAction(action);
    const key = actionErrorKey(result);
    if (key) {
      toastError(i18n.t(key, { ns: 'moderation' }));
      return false;
    }
    if (success) toastSuccess(success);
    return true;
  } catch {
    toastError(i18n.t('errors.generic', { ns: 'moderation' }));
    return false;
  }
}
