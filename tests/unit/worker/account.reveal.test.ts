import { afterEach, describe, expect, it } from 'vitest';
import { nsecEncode } from 'nostr-tools/nip19';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { AccountService } from '../../../worker/account.ts';
import { bytesToHex } from '../../../core/keys.ts';
import { sealWithPin } from '../../../worker/pin.ts';
import { MemoryStorage } from '../../../worker/storage.ts';
import type { CacheReply } from '../../../core/types.ts';

const request = async (): Promise<CacheReply> => ({ events: [] });
const services: AccountService[] = [];
const service = () => {
  const s = new AccountService({ request, storage: new MemoryStorage() });
  services.push(s);
  return s;
};

describe('AccountService.revealSecret (the account page and the /new wizard)', () => {
  afterEach(() => {
    for (const s of services.splice(0)) s.dispose();
  });

  it('gives the local key as an nsec only while it is signed in with it', async () => {
    const sk = generateSecretKey();
    const s = service();
    expect(await s.revealSecret()).toBeNull();
    await s.loginWith({ method: 'nsec', nsec: nsecEncode(sk) });
    expect(await s.revealSecret()).toBe(nsecEncode(sk));
    await s.logout();
    expect(await s.revealSecret()).toBeNull();
  });

  it('gives nothing for a read-only login', async () => {
    const s = service();
    await s.loginWith({ method: 'npub', npub: getPublicKey(generateSecretKey()) });
    expect(await s.revealSecret()).toBeNull();
  });

  it('gives nothing while a PIN-protected key is locked, and the key once unlocked', async () => {
    const sk = generateSecretKey();
    const storage = new MemoryStorage();
    const first = new AccountService({ request, storage });
    services.push(first);
    await first.loginWith({ method: 'nsec', nsec: nsecEncode(sk), pin: '123456', pinConfirm: '123456' });
    const s = new AccountService({ request, storage });
    services.push(s);
    s.boot();
    await new Promise<void>((resolve) => {
      const sub = s.login.subscribe((snap) => {
        if (snap.matches('pinPrompt')) {
          sub.unsubscribe();
          resolve();
        }
      });
    });
    expect(await s.revealSecret('123456')).toBeNull();
    expect(await s.unlock('123456')).toEqual({ ok: true });
    // Unlocked is not enough: the PIN is asked again, and only the right one shows the key.
    expect(await s.revealSecret()).toBeNull();
    expect(await s.revealSecret('654321')).toBeNull();
    expect(await s.revealSecret('123456')).toBe(nsecEncode(sk));
  });

  it('a key stored under an old 4-character PIN is shown with that PIN', async () => {
    const sk = generateSecretKey();
    const storage = new MemoryStorage();
    await storage.saveLogin({ method: 'nsec', pubkey: getPublicKey(sk), secret: await sealWithPin(bytesToHex(sk), '1234') });
    const s = new AccountService({ request, storage });
    services.push(s);
    s.boot();
    await new Promise<void>((resolve) => {
      const sub = s.login.subscribe((snap) => {
        if (snap.matches('pinPrompt')) {
          sub.unsubscribe();
          resolve();
        }
      });
    });
    expect(await s.unlock('1234')).toEqual({ ok: true });
    expect(await s.revealSecret('1235')).toBeNull();
    expect(await s.revealSecret('1234')).toBe(nsecEncode(sk));
  });
});
