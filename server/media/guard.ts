/**
 * Keeps outbound fetches (link previews, the media cache) away from this machine and its
 * private networks: a note's link must not make the server read its own admin ports or a
 * cloud metadata address. The check runs on the address actually connected to, at DNS
 * lookup time, so redirects and DNS rebinding are covered too.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) blocked.addSubnet(net, bits, 'ipv6');

/** Set from FETCH_PRIVATE_ADDRESSES: only for a server whose sources live on its own network (and for tests). */
let allowPrivate = false;
export function setAllowPrivateFetches(allow: boolean): void {
  allowPrivate = allow;
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // IPv4-mapped IPv6 (::ffff:10.0.0.1) is the IPv4 address in disguise.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  return blocked.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** Refuses a URL whose host is a private IP literal (those never reach the lookup below). */
export function assertPublicHost(hostname: string): string | null {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isPrivateAddress(host)) return 'private address';
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A drop-in `lookup` for http(s).request that fails for private addresses. */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    const usable = allowPrivate ? list : list.filter((a) => !isPrivateAddress(a.address));
    if (!usable.length) {
      const refused: NodeJS.ErrnoException = new Error(`refusing to fetch ${hostname}: private address`);
      refused.code = 'EPRIVATE';
      return callback(refused, []);
    }
    if (options.all) callback(null, usable);
    else callback(null, usable[0].address, usable[0].family);
  });
}
