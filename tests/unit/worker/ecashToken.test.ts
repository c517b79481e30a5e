/**
 * Token decoding by spec §5 (prefixes, the three shapes, cleaning), v4 tokens through cashu-ts,
 * the power-of-two split of spec §4, and the NUT-00/02 test vectors the mint and wallet rely on
 * (hash_to_curve, keyset ids) checked against the libraries we build on.
 */
import { getDecodedToken, getEncodedTokenV4 } from '@cashu/cashu-ts';
import { hashToCurve, deriveKeysetId } from '@cashu/crypto/modules/common';
import { hexToBytes } from '@noble/hashes/utils';
import { describe, expect, it } from 'vitest';
import { keysetFromSeed, legacyKeysetId } from '../../../server/mint/crypto.ts';
import {
  cleanToken,
  decodeTokenV3,
  encodeTokenV3,
  MSG_NON_POWER_OF_TWO,
  readTokenV3,
  splitAmount,
  textToBase64Url,
  tokenAmount,
} from '../../../worker/ecashToken.ts';

const p = (id: string, amount: number, n = 0) => ({ id, amount, secret: `s${id}${amount}${n}`, C: `02${'ab'.repeat(32)}` });
const b64 = (v: unknown) => textToBase64Url(JSON.stringify(v));

describe('token decoding (spec §5)', () => {
  const token = { token: [{ mint: 'https://mint.example', proofs: [p('b', 2), p('a', 8)] }], memo: 'Köszönöm!' };

  it('strips every prefix and reads the object-with-token-list shape', () => {
    for (const prefix of ['cashuA', 'cashu:cashuA', 'cashu://cashuA', 'web+cashu://cashuA', '']) {
      const t = readTokenV3(`${prefix}${b64(token)}`);
      expect(t.memo).toBe('Köszönöm!');
      expect(t.entries).toEqual([{ mint: 'https://mint.example', proofs: [p('a', 8), p('b', 2)] }]);
      expect(tokenAmount(t)).toBe(10);
    }
  });

  it('reads a bare array of proofs with an empty mint, which cleaning then drops', () => {
    const raw = decodeTokenV3(`cashuA${b64([p('a', 1)])}`);
    expect(raw.entries).toEqual([{ mint: '', proofs: [p('a', 1)] }]);
    expect(cleanToken(raw.entries)).toEqual([]);
  });

  it('reads proofs with a mints list, taking the first mint', () => {
    const t = readTokenV3(`cashuA${b64({ proofs: [p('a', 4)], mints: [{ url: 'https://m1', ids: ['a'] }, { url: 'https://m2' }] })}`);
    expect(t.entries).toEqual([{ mint: 'https://m1', proofs: [p('a', 4)] }]);
  });

  it('merges entries of the same mint, drops empty ones and sorts by keyset id', () => {
    const t = readTokenV3(
      `cashuA${b64({ token: [{ mint: 'https://m', proofs: [p('c', 1)] }, { mint: 'https://x', proofs: [] }, { mint: 'https://m', proofs: [p('a', 2), p('b', 4)] }, { proofs: [p('z', 8)] }] })}`,
    );
    expect(t.entries).toEqual([{ mint: 'https://m', proofs: [p('a', 2), p('b', 4), p('c', 1)] }]);
  });

  it('refuses text that is no token', () => {
    expect(() => readTokenV3('cashuA!!!')).toThrow();
    expect(() => readTokenV3(`cashuA${b64({ foo: 1 })}`)).toThrow('Unknown token shape');
  });

  it('round-trips with our encoder and reads cashu-ts v3 and v4 tokens', () => {
    const proofs = [{ id: '009a1f293253e41e', amount: 2, secret: 'x', C: `02${'cd'.repeat(32)}` }];
    const ours = encodeTokenV3({ entries: [{ mint: 'https://m', proofs }], memo: 'm', unit: 'sat' });
    expect(getDecodedToken(ours)).toMatchObject({ mint: 'https://m', memo: 'm', unit: 'sat', proofs });
    const v4 = getEncodedTokenV4({ mint: 'https://m', proofs, memo: 'négy', unit: 'sat' });
    expect(v4.startsWith('cashuB')).toBe(true);
    expect(getDecodedToken(v4)).toMatchObject({ mint: 'https://m', memo: 'négy', proofs: [{ amount: 2, secret: 'x', id: '009a1f293253e41e' }] });
  });
});

describe('amount splitting (spec §4)', () => {
  it('splits into powers of two', () => {
    expect(splitAmount(13)).toEqual([1, 4, 8]);
    expect(splitAmount(0)).toEqual([]);
    expect(splitAmount(2 ** 31 + 1)).toEqual([1, 2 ** 31]);
  });
  it('honours preferences first', () => {
    expect(splitAmount(13, [{ amount: 4, count: 2 }])).toEqual([4, 4, 1, 4]);
    expect(splitAmount(3, [{ amount: 8, count: 1 }])).toEqual([1, 2]);
  });
  it('refuses non-power-of-two preferences with the spec text', () => {
    expect(() => splitAmount(10, [{ amount: 3, count: 1 }])).toThrow(MSG_NON_POWER_OF_TWO);
  });
});

describe('NUT-00 / NUT-02 test vectors', () => {
  it('hash_to_curve (domain separated, v1)', () => {
    const h = (hex: string) => hashToCurve(hexToBytes(hex)).toHex(true);
    expect(h('0000000000000000000000000000000000000000000000000000000000000000')).toBe('024cce997d3b518f739663b757deaec95bcd9473c30a14ac2fd04023a739d1a725');
    expect(h('0000000000000000000000000000000000000000000000000000000000000001')).toBe('022e7158e11c9506f1aa4248bf531298daa7febd6194f003edcd9b93ade6253acf');
    expect(h('0000000000000000000000000000000000000000000000000000000000000002')).toBe('026cdbe15362df59cd1dd3c9c11de8aedac2106eca69236ecd9fbe117af897be4f');
  });
  it('keyset id from keys (v1) and the 12-character legacy id', () => {
    const keys = {
      1: '03a40f20667ed53513075dc51e715ff2046cad64eb68960632269ba7f0210e38bc',
      2: '03fd4ce5a16b65576145949e6f99f445f8249fee17c606b688b504a849cdc452de',
      4: '02648eccfa4c026960966276fa5a4cae46ce0fd432211a4f449bf84f13aa5f8303',
      8: '02fdfd6796bfeac490cbee12f778f867f0a2c68f6508d17c649759ea0dc3547528',
    };
    const bytes = Object.fromEntries(Object.entries(keys).map(([a, k]) => [a, hexToBytes(k)]));
    expect(deriveKeysetId(bytes)).toBe('00456a94ab4e1c46');
    expect(legacyKeysetId(keys)).toHaveLength(12);
    // The mint derives both from one seed: the same seed gives the same ids.
    const a = keysetFromSeed('11'.repeat(32), 'sat', true, 0);
    const b = keysetFromSeed('11'.repeat(32), 'sat', true, 0);
    expect([a.id, a.legacyId]).toEqual([b.id, b.legacyId]);
    expect(a.id).toMatch(/^00[0-9a-f]{14}$/);
  });
});
