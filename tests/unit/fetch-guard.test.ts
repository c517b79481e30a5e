import { afterEach, describe, expect, it } from 'vitest';
import { FetchError, fetchHead } from '../../server/media/fetch.ts';
import { isPrivateAddress, setAllowPrivateFetches } from '../../server/media/guard.ts';

const opts = { timeoutMs: 2000, maxRedirects: 3, accept: 'text/html' };

describe('outbound fetch guard', () => {
  afterEach(() => setAllowPrivateFetches(false));

  it('knows private, loopback, link-local and mapped addresses from public ones', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::5', '::ffff:10.0.0.1']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['1.1.1.1', '93.184.216.34', '2001:4860:4860::8888', 'example.com']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses private IP literals and names that resolve to private addresses, before connecting', async () => {
    await expect(fetchHead('http://127.0.0.1:9/', 1000, opts)).rejects.toThrow(new FetchError('private address'));
    await expect(fetchHead('http://[::1]:9/', 1000, opts)).rejects.toThrow('private address');
    await expect(fetchHead('http://localhost:9/', 1000, opts)).rejects.toThrow(/private address/);
  });

  it('lets them through when the operator allows private fetches', async () => {
    setAllowPrivateFetches(true);
    // Port 9 (discard) is closed here: the refusal now comes from the connection, not the guard.
    await expect(fetchHead('http://127.0.0.1:9/', 1000, opts)).rejects.not.toThrow('private address');
  });
});
