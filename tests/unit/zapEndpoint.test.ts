import { describe, expect, it } from 'vitest';
import { bech32 } from '@scure/base';
import { lnurlEndpoint } from '../../worker/zap.ts';

const own = { domain: 'strucc.test', origin: 'http://127.0.0.1:8080' };
const lud06 = (url: string) => bech32.encode('lnurl', bech32.toWords(new TextEncoder().encode(url)), 2000);

describe('lnurlEndpoint', () => {
  it('maps a lightning address to its well-known LNURL-pay URL', () => {
    expect(lnurlEndpoint('Alice@Example.com', '')).toBe('https://example.com/.well-known/lnurlp/alice');
  });

  it('sends addresses on the demo server’s domain to the server itself', () => {
    expect(lnurlEndpoint('bob@strucc.test', '', own)).toBe('http://127.0.0.1:8080/.well-known/lnurlp/bob');
    expect(lnurlEndpoint('bob@example.com', '', own)).toBe('https://example.com/.well-known/lnurlp/bob');
  });

  it('decodes a bech32 lud06 when there is no lud16', () => {
    expect(lnurlEndpoint('', lud06('https://pay.example/lnurl/x'))).toBe('https://pay.example/lnurl/x');
  });

  it.each([
    ['nothing', '', ''],
    ['a name without domain', 'alice@', ''],
    ['a path in the domain', 'a@evil.example/x', ''],
    ['a broken lud06', '', 'lnurl1qqqq'],
  ])('refuses %s as no-address', (_n, a, b) => {
    expect(() => lnurlEndpoint(a, b)).toThrow('no-address');
  });
});
