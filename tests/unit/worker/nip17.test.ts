import { describe, expect, it } from 'vitest';
import * as nip17 from 'nostr-tools/nip17';
import * as nip59 from 'nostr-tools/nip59';
import { finalizeEvent, generateSecretKey, type Event } from 'nostr-tools/pure';
import { Signer } from '../../../worker/signer.ts';
import { dmProtocolFor, inboxRelaysOf, unwrapPrivateMessage, wrapPrivateMessage, type PrivateCrypto } from '../../../worker/nip17.ts';
import type { NostrEvent } from '../../../core/types.ts';

function account(): { secret: Uint8Array; crypto: PrivateCrypto } {
  const secret = generateSecretKey();
  const signer = new Signer();
  const pubkey = signer.useLocal(secret);
  return {
    secret,
    crypto: {
      pubkey,
      sign: (t) => signer.sign(t),
      nip44Encrypt: (pk, text) => signer.nip44Encrypt(pk, text),
      nip44Decrypt: (pk, ct) => signer.nip44Decrypt(pk, ct),
    },
  };
}

const NOW = 1_760_000_000;

describe('NIP-17 in the worker', () => {
  it('wraps a message that nostr-tools opens, for the recipient and for the sender, with blurred times', async () => {
    const anna = account();
    const bela = account();
    const { rumor, toRecipient, toSelf } = await wrapPrivateMessage(anna.crypto, bela.crypto.pubkey, 'Szia Béla!', NOW);
    expect(toRecipient).toMatchObject({ kind: 1059, tags: [['p', bela.crypto.pubkey]] });
    expect(toRecipient.pubkey).not.toBe(anna.crypto.pubkey);
    expect(toRecipient.created_at).toBeLessThanOrEqual(NOW);
    expect(toRecipient.created_at).toBeGreaterThan(NOW - 2 * 24 * 3600);
    const opened = nip17.unwrapEvent(toRecipient as Event, bela.secret);
    expect(opened).toMatchObject({ kind: 14, pubkey: anna.crypto.pubkey, content: 'Szia Béla!', created_at: NOW, id: rumor.id });
    const mine = await unwrapPrivateMessage(anna.crypto, toSelf);
    expect(mine).toEqual({ id: rumor.id, sender: anna.crypto.pubkey, receiver: bela.crypto.pubkey, created_at: NOW, text: 'Szia Béla!' });
  });

  it('opens what nostr-tools wraps', async () => {
    const anna = account();
    const bela = account();
    const wrap = nip17.wrapEvent(anna.secret, { publicKey: bela.crypto.pubkey }, 'Válasz másik kliensből') as NostrEvent;
    const got = await unwrapPrivateMessage(bela.crypto, wrap);
    expect(got).toMatchObject({ sender: anna.crypto.pubkey, receiver: bela.crypto.pubkey, text: 'Válasz másik kliensből' });
  });

  it('refuses a wrap for someone else and a rumor that claims another author than its seal', async () => {
    const anna = account();
    const bela = account();
    const cili = account();
    const wrap = nip17.wrapEvent(anna.secret, { publicKey: bela.crypto.pubkey }, 'nem neked') as NostrEvent;
    await expect(unwrapPrivateMessage(cili.crypto, wrap)).rejects.toThrow('someone else');
    // Cili seals a rumor that says it is Anna's.
    const forged = nip59.createRumor({ kind: 14, tags: [['p', bela.crypto.pubkey]], content: 'Anna vagyok', created_at: NOW }, anna.secret);
    const seal = nip59.createSeal(forged, cili.secret, bela.crypto.pubkey);
    const wrapped = nip59.createWrap(seal, bela.crypto.pubkey) as NostrEvent;
    await expect(unwrapPrivateMessage(bela.crypto, wrapped)).rejects.toThrow("not by the seal's signer");
    // A kind-1 instead of a wrap.
    const note = finalizeEvent({ kind: 1, created_at: NOW, tags: [['p', bela.crypto.pubkey]], content: 'x' }, anna.secret) as NostrEvent;
    await expect(unwrapPrivateMessage(bela.crypto, note)).rejects.toThrow('not a gift wrap');
  });

  it('reads inbox relays from a kind 10050 and picks the protocol by them', () => {
    const list = { kind: 10050, tags: [['relay', 'wss://Inbox.example/'], ['relay', 'wss://inbox.example'], ['relay', 'https://nope'], ['r', 'wss://other.example']] };
    expect(inboxRelaysOf(list)).toEqual(['wss://inbox.example']);
    expect(inboxRelaysOf({ kind: 10002, tags: [['relay', 'wss://a.example']] })).toEqual([]);
    expect(inboxRelaysOf(undefined)).toEqual([]);
    expect(dmProtocolFor(['wss://inbox.example'])).toBe('nip17');
    expect(dmProtocolFor([])).toBe('nip04');
  });
});
