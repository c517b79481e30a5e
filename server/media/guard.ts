/**
 * Keeps outbound connections (link previews, the media cache, broadcast and rebroadcast relays)
 * away from this machine and its private networks: a note's link or a user's relay list must not
 * make the server reach its own admin ports or a cloud metadata address. The check runs on the
 * address actually connected to, at DNS lookup time, so redirects and DNS rebinding are covered.
 *
 * The ranges are the IANA IPv4 and IPv6 special-purpose registries' entries that are not globally
 * reachable, plus the IPv6 forms that carry an IPv4 address inside (mapped, NAT64, 6to4), whose
 * embedded address is checked in turn.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';

type Range = readonly [bigint, number];

function v4ToInt(address: string): bigint | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  let n = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = (n << 8n) | BigInt(Number(p));
  }
  return n;
}

/** 128-bit value of an IPv6 address (with an optional dotted IPv4 tail and zone id). */
function v6ToInt(address: string): bigint | null {
  let text = address.replace(/%.*$/, '').toLowerCase();
  let tail: bigint | null = null;
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail = v4ToInt(dotted[2]);
    if (tail === null) return null;
    text = `${dotted[1]}${(tail >> 16n).toString(16)}:${(tail & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  let n = 0n;
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    n = (n << 16n) | BigInt(parseInt(g, 16));
  }
  return n;
}

function range(net: string, bits: number, width: 32 | 128): Range {
  const n = (width === 32 ? v4ToInt(net) : v6ToInt(net)) as bigint;
  return [n >> BigInt(width - bits), bits];
}

function inRange(n: bigint, [prefix, bits]: Range, width: 32 | 128): boolean {
  return n >> BigInt(width - bits) === prefix;
}

const V4_BLOCKED: Range[] = (
  [
    ['0.0.0.0', 8], // "this network"
    ['10.0.0.0', 8], // private
    ['100.64.0.0', 10], // carrier-grade NAT (also Alibaba's metadata 100.100.100.200)
    ['127.0.0.0', 8], // loopback
    ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
    ['172.16.0.0', 12], // private
    ['192.0.0.0', 24], // IETF protocol assignments
    ['192.0.2.0', 24], // TEST-NET-1
    ['192.88.99.0', 24], // deprecated 6to4 relay anycast
    ['192.168.0.0', 16], // private
    ['198.18.0.0', 15], // benchmarking
    ['198.51.100.0', 24], // TEST-NET-2
    ['203.0.113.0', 24], // TEST-NET-3
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, with 255.255.255.255 broadcast
  ] as const
).map(([net, bits]) => range(net, bits, 32));

/** Inside 2000::/3, the only IPv6 space with ordinary public hosts, these are still special. */
const V6_BLOCKED: Range[] = (
  [
    ['2001::', 23], // IETF protocol assignments: Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID
    ['2001:db8::', 32], // documentation
    ['2002::', 16], // 6to4: allowed only when the embedded IPv4 is public (checked before this list)
    ['3fff::', 20], // documentation (RFC 9637)
  ] as const
).map(([net, bits]) => range(net, bits, 128));

const V6_GLOBAL = range('2000::', 3, 128);
const V4_MAPPED = range('::ffff:0:0', 96, 128);
const NAT64 = range('64:ff9b::', 96, 128);
const SIX_TO_FOUR = range('2002::', 16, 128);

function privateV4(n: bigint): boolean {
  return V4_BLOCKED.some((r) => inRange(n, r, 32));
}

function privateV6(n: bigint): boolean {
  // The IPv4 address in disguise decides: mapped ::ffff:a.b.c.d and well-known NAT64 carry it in
  // the low 32 bits, 6to4 in bits 16–47.
  if (inRange(n, V4_MAPPED, 128) || inRange(n, NAT64, 128)) return privateV4(n & 0xffffffffn);
  if (inRange(n, SIX_TO_FOUR, 128)) return privateV4((n >> 80n) & 0xffffffffn);
  // Everything outside global unicast is special: ::/96 IPv4-compatible (with :: and ::1),
  // 64:ff9b:1::/48 local NAT64, 100::/64 discard, fc00::/7, fe80::/10, ff00::/8 …
  if (!inRange(n, V6_GLOBAL, 128)) return true;
  return V6_BLOCKED.some((r) => inRange(n, r, 128));
}

/** Set from FETCH_PRIVATE_ADDRESSES: only for a server whose sources live on its own network (and for tests). */
let allowPrivate = false;
export function setAllowPrivateFetches(allow: boolean): void {
  allowPrivate = allow;
}

export function privateFetchesAllowed(): boolean {
  return allowPrivate;
}

/** Whether an IP literal is outside the publicly reachable internet; host names are false. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return privateV4(v4ToInt(address) as bigint);
  if (family === 6) {
    const n = v6ToInt(address);
    // Node accepted it as IPv6, so an address we cannot read is refused rather than trusted.
    return n === null || privateV6(n);
  }
  return false;
}

/** Refuses a URL whose host is a private IP literal (those never reach the lookup below). */
export function assertPublicHost(hostname: string, allow = allowPrivate): string | null {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (!allow && isPrivateAddress(host)) return 'private address';
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A drop-in `lookup` for http(s).request and ws that fails for private addresses. */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookupWith(allowPrivate, hostname, options, callback);
}

/** The same guard with the switch of one server rather than the process-wide one (several servers share a test process). */
export function guardedLookupFor(allow: boolean): typeof guardedLookup {
  return (hostname, options, callback) => lookupWith(allow, hostname, options, callback);
}

function lookupWith(allow: boolean, hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    const usable = allow ? list : list.filter((a) => !isPrivateAddress(a.address));
    if (!usable.length) {
      const refused: NodeJS.ErrnoException = new Error(`refusing to connect to ${hostname}: private address`);
      refused.code = 'EPRIVATE';
      return callback(refused, []);
    }
    if (options.all) callback(null, usable);
    else callback(null, usable[0].address, usable[0].family);
  });
}
