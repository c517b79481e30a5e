import { afterEach, describe, expect, it, vi } from 'vitest';
import { nsecEncode, npubEncode, nprofileEncode } from 'nostr-tools/nip19';
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from 'nostr-tools/pure';
import { AccountError, EXTENSION_NOT_FOUND, errorCode, parsePubkey, parseSecret, bytesToHex } from '../../../core/keys.ts';
import { decryptWithPin, encryptWithPin, sealWithPin } from '../../../worker/pin.ts';
import { isPinEncrypted, isWeakPin, PBKDF2_ITERATIONS, PIN_PREFIX, pinProblem } from '../../../core/pin.ts';
import { Signer } from '../../../worker/signer.ts';
import type { NostrEvent, SignerBridge, UnsignedEvent } from '../../../core/types.ts';

const now = () => Math.floor(Date.now() / 1000);
const template = (content = 'szia'): UnsignedEvent => ({ kind: 1, tags: [['t', 'strucc']], content, created_at: now() });

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return errorCode(err) ?? (err as Error).message;
  }
}

/** A NIP-07 extension as a tab lends it, signing with a real key. */
function extensionBridge(secret: Uint8Array, tamper?: (e: NostrEvent) => NostrEvent): SignerBridge & { calls: string[] } {
  const other = new Signer();
  other.useLocal(secret);
  const calls: string[] = [];
  return {
    calls,
    async available() {
      return true;
    },
    async getPublicKey() {
      calls.push('getPublicKey');
      return getPublicKey(secret);
    },
    async signEvent(e) {
      calls.push('signEvent');
      const signed = finalizeEvent({ kind: e.kind, tags: e.tags, content: e.content, created_at: e.created_at }, secret) as NostrEvent;
      return tamper ? tamper({ ...signed }) : signed;
    },
    nip04Encrypt: (pk, t) => other.nip04Encrypt(pk, t),
    nip04Decrypt: (pk, t) => other.nip04Decrypt(pk, t),
    nip44Encrypt: (pk, t) => other.nip44Encrypt(pk, t),
    nip44Decrypt: (pk, t) => other.nip44Decrypt(pk, t),
  };
}

function missingBridge(): SignerBridge {
  const fail = async (): Promise<never> => {
    throw new Error(EXTENSION_NOT_FOUND);
  };
  return {
    available: async () => false,
    getPublicKey: fail,
    signEvent: fail,
    nip04Encrypt: fail,
    nip04Decrypt: fail,
    nip44Encrypt: fail,
    nip44Decrypt: fail,
  };
}

describe('keys', () => {
  it('accepts an nsec or a 64-hex secret and refuses anything else with invalid-nsec', () => {
    const sk = generateSecretKey();
    expect(bytesToHex(parseSecret(nsecEncode(sk)))).toBe(bytesToHex(sk));
    expect(bytesToHex(parseSecret(`  ${bytesToHex(sk)} `))).toBe(bytesToHex(sk));
    for (const bad of ['', 'nsec1', 'nsec1qqqqqqqq', npubEncode(getPublicKey(sk)), 'f'.repeat(64), '0'.repeat(64), 'xyz']) {
      expect(() => parseSecret(bad)).toThrow(AccountError);
      try {
        parseSecret(bad);
      } catch (err) {
        expect(errorCode(err)).toBe('invalid-nsec');
      }
    }
  });

  it('reads a read-only login from npub, nprofile or hex', () => {
    const pk = getPublicKey(generateSecretKey());
    expect(parsePubkey(npubEncode(pk))).toBe(pk);
    expect(parsePubkey(nprofileEncode({ pubkey: pk }))).toBe(pk);
    expect(parsePubkey(pk.toUpperCase())).toBe(pk);
    expect(parsePubkey('npub1nem')).toBeUndefined();
  });
});

describe('PIN encryption (real WebCrypto)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('PIN rules give the spec messages', () => {
    // New PINs need 6 characters (issue 12); 4 and 5 were enough before.
    expect(pinProblem('123', '123')).toBe('A PIN-kódnak legalább 6 karakterből kell állnia.');
    expect(pinProblem('12345', '12345')).toBe('A PIN-kódnak legalább 6 karakterből kell állnia.');
    expect(pinProblem('123456', '123465')).toBe('A PIN-ek nem egyeznek');
    expect(pinProblem('123456', '123456')).toBeUndefined();
    expect(isWeakPin('1234')).toBe(true);
    expect(isWeakPin('123456')).toBe(false);
  });

  it('round-trips with the right PIN, fails bad-cipher with a wrong one, never stores the plain secret', async () => {
    const secret = bytesToHex(generateSecretKey());
    const a = await encryptWithPin(secret, '246810');
    const b = await encryptWithPin(secret, '246810');
    expect(isPinEncrypted(a)).toBe(true);
    expect(a.startsWith(PIN_PREFIX)).toBe(true);
    expect(a).not.toContain(secret);
    // Fresh salt and IV every time.
    expect(a).not.toBe(b);
    expect(Number(a.slice(PIN_PREFIX.length).split(':')[0])).toBeGreaterThanOrEqual(200_000);
    expect(PBKDF2_ITERATIONS).toBeGreaterThanOrEqual(200_000);
    expect(await decryptWithPin(a, '246810')).toBe(secret);
    expect(await codeOf(decryptWithPin(a, '246811'))).toBe('bad-cipher');
    expect(await codeOf(decryptWithPin(`${a.slice(0, -4)}AAAA`, '246810'))).toBe('bad-cipher');
    expect(await codeOf(decryptWithPin(secret, '246810'))).toBe('bad-cipher');
  });

  it('refuses a new short PIN, but a secret stored under an old 4-character PIN still opens', async () => {
    const secret = bytesToHex(generateSecretKey());
    await expect(encryptWithPin(secret, '2468')).rejects.toThrow('A PIN-kódnak legalább 6 karakterből kell állnia.');
    const old = await sealWithPin(secret, '2468');
    expect(await decryptWithPin(old, '2468')).toBe(secret);
    expect(await codeOf(decryptWithPin(old, '2469'))).toBe('bad-cipher');
  });

  it('without crypto.subtle (not a secure context) it is not-secure-env', async () => {
    vi.stubGlobal('crypto', { getRandomValues: (a: Uint8Array) => a });
    expect(await codeOf(encryptWithPin('ab', '123456'))).toBe('not-secure-env');
    expect(await codeOf(decryptWithPin(`${PIN_PREFIX}1:AA==:AA==:AA==`, '1234'))).toBe('not-secure-env');
  });
});

describe('Signer (real signatures and NIP-04/44)', () => {
  it('signs locally with a verifiable signature, and signed requests carry the app d tag', async () => {
    const sk = generateSecretKey();
    const signer = new Signer();
    expect(signer.useLocal(sk)).toBe(getPublicKey(sk));
    const e = await signer.sign(template());
    expect(e.pubkey).toBe(getPublicKey(sk));
    expect(verifyEvent({ ...e })).toBe(true);
    expect(await signer.getPublicKey()).toBe(getPublicKey(sk));
    const req = await signer.signRequest('get_app_settings', { description: 'x' });
    expect(req.kind).toBe(30078);
    expect(req.tags).toEqual([['d', 'Primal-Web App', 'get_app_settings']]);
    expect(verifyEvent({ ...req })).toBe(true);
  });

  it('NIP-04 and NIP-44 round-trip between two accounts', async () => {
    const a = new Signer();
    const b = new Signer();
    const pa = a.useLocal(generateSecretKey());
    const pb = b.useLocal(generateSecretKey());
    const c04 = await a.nip04Encrypt(pb, 'titkos üzenet');
    expect(c04).toContain('?iv=');
    expect(await b.nip04Decrypt(pa, c04)).toBe('titkos üzenet');
    const c44 = await a.nip44Encrypt(pb, 'még titkosabb');
    expect(await b.nip44Decrypt(pa, c44)).toBe('még titkosabb');
    expect(await codeOf(b.nip44Decrypt(pa, `${c44.slice(0, -6)}AAAAAA`))).toBe('invalid MAC');
  });

  it('without a key: the §8 codes', async () => {
    const signer = new Signer();
    expect(await codeOf(signer.sign(template()))).toBe('no_nostr_extension');
    expect(await codeOf(signer.getPublicKey())).toBe('pubkey-no-nsec');
    signer.useReadOnly(getPublicKey(generateSecretKey()));
    expect(await codeOf(signer.sign(template()))).toBe('sign-no-nsec');
    expect(await codeOf(signer.getPublicKey())).toBe('pubkey-no-nsec');
    expect(await codeOf(signer.nip04Encrypt('a'.repeat(64), 'x'))).toBe('encrypt-no-nsec');
    expect(await codeOf(signer.nip04Decrypt('a'.repeat(64), 'x'))).toBe('decrypt-no-nsec');
    expect(await codeOf(signer.nip44Encrypt('a'.repeat(64), 'x'))).toBe('encrypt-no-nsec');
    expect(await codeOf(signer.nip44Decrypt('a'.repeat(64), 'x'))).toBe('decrypt-no-nsec');
  });

  it('clear() wipes the secret bytes', async () => {
    const signer = new Signer();
    signer.useLocal(generateSecretKey());
    const mode = signer.current;
    signer.clear();
    expect(mode.kind === 'local' && mode.secret.every((b) => b === 0)).toBe(true);
    expect(signer.pubkey).toBeUndefined();
  });

  it('signs through a tab extension and verifies what comes back', async () => {
    const sk = generateSecretKey();
    const signer = new Signer();
    const bridge = extensionBridge(sk);
    signer.addBridge('tab1', missingBridge());
    signer.addBridge('tab2', bridge);
    const pk = await signer.detectExtension();
    expect(pk).toBe(getPublicKey(sk));
    signer.useExtension(pk);
    const e = await signer.sign(template());
    expect(verifyEvent({ ...e })).toBe(true);
    expect(bridge.calls).toEqual(['getPublicKey', 'signEvent']);
    const peer = new Signer();
    const peerPk = peer.useLocal(generateSecretKey());
    expect(await peer.nip04Decrypt(pk, await signer.nip04Encrypt(peerPk, 'hello'))).toBe('hello');
    expect(await signer.nip44Decrypt(peerPk, await peer.nip44Encrypt(pk, 'szia'))).toBe('szia');
  });

  it('an extension result with a broken or foreign signature is event-sig-not-verified; none at all is event_not_signed', async () => {
    const sk = generateSecretKey();
    const pk = getPublicKey(sk);
    const cases: [(e: NostrEvent) => NostrEvent, string][] = [
      [(e) => ({ ...e, sig: `${e.sig.slice(0, -2)}00` }), 'event-sig-not-verified'],
      [(e) => ({ ...e, content: 'más' }), 'event-sig-not-verified'],
      [() => finalizeEvent(template(), generateSecretKey()) as NostrEvent, 'event-sig-not-verified'],
      [(e) => ({ ...e, sig: '' }), 'event_not_signed'],
    ];
    for (const [tamper, code] of cases) {
      const signer = new Signer();
      signer.addBridge('tab', extensionBridge(sk, tamper));
      signer.useExtension(pk);
      expect(await codeOf(signer.sign(template()))).toBe(code);
    }
  });

  it('a tab that no longer answers is dropped and the next one is used; with none left it is no_nostr_extension', async () => {
    const sk = generateSecretKey();
    const signer = new Signer();
    const gone: SignerBridge = { ...missingBridge(), available: () => Promise.reject(new Error('port closed')) };
    signer.addBridge('closed', gone);
    signer.addBridge('live', extensionBridge(sk));
    signer.useExtension(getPublicKey(sk));
    expect(verifyEvent({ ...(await signer.sign(template())) })).toBe(true);
    expect(signer.bridgeCount).toBe(1);
    signer.removeBridge('live');
    expect(await codeOf(signer.sign(template()))).toBe('no_nostr_extension');
    signer.addBridge('nothing', missingBridge());
    expect(await codeOf(signer.detectExtension())).toBe(EXTENSION_NOT_FOUND);
  });

  it('a refusal in one tab is final, not tried in every other tab', async () => {
    const sk = generateSecretKey();
    const signer = new Signer();
    const refusing: SignerBridge = { ...extensionBridge(sk), signEvent: () => Promise.reject(new Error('User rejected')) };
    const other = extensionBridge(sk);
    signer.addBridge('a', refusing);
    signer.addBridge('b', other);
    signer.useExtension(getPublicKey(sk));
    expect(await codeOf(signer.sign(template()))).toBe('User rejected');
    expect(other.calls).toEqual([]);
  });
});
