import { describe, expect, it } from 'vitest';
import { bech32 } from '@scure/base';
import { lnurlEndpoint, withLnurlProxy, zapSplits } from '../../../worker/zap.ts';

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

describe('zapSplits (NIP-57 appendix G)', () => {
  const a = 'a'.repeat(64), b = 'b'.repeat(64), c = 'c'.repeat(64);
  it('is undefined without zap tags: the author gets it all', () => {
    expect(zapSplits({ tags: [['p', a]] }, 100)).toBeUndefined();
    expect(zapSplits(undefined, 100)).toBeUndefined();
  });

  it('divides by weight and keeps the total exact', () => {
    expect(zapSplits({ tags: [['zap', a, 'wss://r', '1'], ['zap', b, 'wss://r', '2']] }, 100)).toEqual([
      { pubkey: a, amountSats: 33 },
      { pubkey: b, amountSats: 67 },
    ]);
    expect(zapSplits({ tags: [['zap', a, '', '1'], ['zap', b, '', '1'], ['zap', c, '', '1']] }, 10)!.reduce((s, x) => s + x.amountSats, 0)).toBe(10);
  });

  it('splits evenly without weights and skips the unweighted when some have weights', () => {
    expect(zapSplits({ tags: [['zap', a], ['zap', b]] }, 42)).toEqual([
      { pubkey: a, amountSats: 21 },
      { pubkey: b, amountSats: 21 },
    ]);
    expect(zapSplits({ tags: [['zap', a, '', '3'], ['zap', b]] }, 42)).toEqual([{ pubkey: a, amountSats: 42 }]);
  });

  it('drops shares that round to nothing and ignores bad pubkeys', () => {
    expect(zapSplits({ tags: [['zap', a, '', '99'], ['zap', b, '', '1'], ['zap', 'nem-pubkey', '', '50']] }, 10)).toEqual([{ pubkey: a, amountSats: 10 }]);
  });
});

describe('withLnurlProxy', () => {
  const origin = 'http://127.0.0.1:8080';
  const answer = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

  it('asks the LNURL server from the browser first and uses the proxy only when that fails', async () => {
    const asked: string[] = [];
    const fetcher = async (url: string) => {
      asked.push(url);
      if (url.startsWith('https://nocors.example/')) throw new TypeError('Failed to fetch');
      return answer({ callback: 'https://x/cb' });
    };
    const f = withLnurlProxy(fetcher, origin);
    await f('https://cors.example/.well-known/lnurlp/a');
    await f('https://nocors.example/.well-known/lnurlp/b');
    expect(asked).toEqual([
      'https://cors.example/.well-known/lnurlp/a',
      'https://nocors.example/.well-known/lnurlp/b',
      `${origin}/lnurlp/proxy?url=${encodeURIComponent('https://nocors.example/.well-known/lnurlp/b')}`,
    ]);
  });

  it('never proxies our own origin, nor without one', async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new TypeError('Failed to fetch');
    };
    await expect(withLnurlProxy(failing, origin)(`${origin}/.well-known/lnurlp/c`)).rejects.toThrow('Failed to fetch');
    await expect(withLnurlProxy(failing, undefined)('https://nocors.example/x')).rejects.toThrow('Failed to fetch');
    expect(calls).toBe(2);
  });
});
