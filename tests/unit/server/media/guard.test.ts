import { afterEach, describe, expect, it } from 'vitest';
import { FetchError, fetchHead } from '../../../../server/media/fetch.ts';
import { isPrivateAddress, setAllowPrivateFetches } from '../../../../server/media/guard.ts';

const opts = { timeoutMs: 2000, maxRedirects: 3, accept: 'text/html' };

describe('outbound fetch guard', () => {
  afterEach(() => setAllowPrivateFetches(false));

  it('knows private, loopback, link-local and mapped addresses from public ones', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::5', '::ffff:10.0.0.1']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['1.1.1.1', '93.184.216.34', '2001:4860:4860::8888', 'example.com']) expect(isPrivateAddress(a), a).toBe(false);
  });

  // One address inside (and, where it matters, one just outside) every special-purpose range.
  const blockedByRange: Record<string, string[]> = {
    '0.0.0.0/8': ['0.0.0.0', '0.255.255.255'],
    '10.0.0.0/8': ['10.0.0.1', '10.255.255.255'],
    '100.64.0.0/10 CGNAT': ['100.64.0.1', '100.127.255.254', '100.100.100.200'],
    '127.0.0.0/8': ['127.0.0.1', '127.1.2.3'],
    '169.254.0.0/16 link-local, metadata': ['169.254.169.254', '169.254.0.1'],
    '172.16.0.0/12': ['172.16.0.1', '172.31.255.255'],
    '192.0.0.0/24': ['192.0.0.1', '192.0.0.255'],
    '192.0.2.0/24': ['192.0.2.1'],
    '192.88.99.0/24': ['192.88.99.1'],
    '192.168.0.0/16': ['192.168.1.1'],
    '198.18.0.0/15': ['198.18.0.1', '198.19.255.255'],
    '198.51.100.0/24': ['198.51.100.7'],
    '203.0.113.0/24': ['203.0.113.9'],
    '224.0.0.0/4 multicast': ['224.0.0.1', '239.255.255.250'],
    '240.0.0.0/4 reserved': ['240.0.0.1', '250.1.2.3'],
    '255.255.255.255': ['255.255.255.255'],
    '::/96 IPv4-compatible': ['::', '::1', '::7f00:1', '::1.2.3.4', '::8.8.8.8'],
    '::ffff:0:0/96 mapped, private v4': ['::ffff:10.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254'],
    '64:ff9b::/96 NAT64, private v4': ['64:ff9b::127.0.0.1', '64:ff9b::a00:1', '64:ff9b::169.254.169.254'],
    '64:ff9b:1::/48 local NAT64': ['64:ff9b:1::1', '64:ff9b:1::8.8.8.8'],
    '2002::/16 6to4, private v4': ['2002:7f00:1::', '2002:a9fe:a9fe::1', '2002:c0a8:101::5'],
    '2001::/32 Teredo': ['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    '2001:db8::/32': ['2001:db8::1', '2001:db8:ffff::1'],
    '3fff::/20': ['3fff::1'],
    '100::/64 discard': ['100::1'],
    'fc00::/7': ['fc00::1', 'fd00::5', 'fd00:ec2::254'],
    'fe80::/10': ['fe80::1', 'fe80::1%eth0', 'febf::1'],
    'fec0::/10 site-local': ['fec0::1'],
    'ff00::/8': ['ff02::1', 'ff0e::1'],
  };

  it.each(Object.entries(blockedByRange))('refuses %s', (_name, addresses) => {
    for (const a of addresses) expect(isPrivateAddress(a), a).toBe(true);
  });

  it('lets public addresses through, also inside the IPv6 forms that embed a public IPv4', () => {
    for (const a of [
      '1.1.1.1', '8.8.8.8', '100.63.255.255', '100.128.0.0', '172.32.0.1', '192.0.3.1', '198.20.0.1', '223.255.255.255',
      '2001:4860:4860::8888', '2606:4700::1111', '2a00:1450::1', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1',
    ]) {
      expect(isPrivateAddress(a), a).toBe(false);
    }
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
