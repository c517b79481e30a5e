/** The wallet that pays: the tab's WebLN when chosen and present, else the worker's active NWC connection. */
import { useTranslation } from 'react-i18next';
import { useWebln } from '../../lib/webln';
import { ACTIONS_NS } from '../actions/state';
import { useWallet } from './useWallet';

export type Payer = { kind: 'webln'; name: string } | { kind: 'nwc'; id: string; name: string };

export function usePayer(): Payer | null {
  const { t } = useTranslation(ACTIONS_NS);
  const wallet = useWallet();
  const { active } = useWebln();
  if (active) return { kind: 'webln', name: t('zap.weblnName') };
  const c = wallet?.connections.find((x) => x.id === wallet.active);
  return c ? { kind: 'nwc', id: c.id, name: c.name } : null;
}
