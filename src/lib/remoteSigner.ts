/**
 * The Hungarian message for a remote signer's (NIP-46) failure codes, wherever a signature was
 * asked for (login, follow, publishing); undefined for any other code, so callers keep their own.
 */
import i18n from '../i18n';
import '../components/login/i18n';

const REMOTE_CODES: ReadonlySet<string> = new Set(['bunker-bad-uri', 'bunker-timeout', 'bunker-rejected', 'bunker-unreachable']);

export function remoteSignerError(code: string | undefined): string | undefined {
  if (!code || !REMOTE_CODES.has(code)) return undefined;
  return i18n.t(`remote.errors.${code}`, { ns: 'login' });
}
