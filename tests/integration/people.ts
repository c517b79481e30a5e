/** Throwaway signing identities for integration tests: fresh keys, real signatures. */
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';

export interface Person {
  sk: Uint8Array;
  pk: string;
}

export const person = (): Person => {
  const sk = generateSecretKey();
  return { sk, pk: getPublicKey(sk) };
};

export const sign = (who: { sk: Uint8Array }, kind: number, created_at: number, content: string, tags: string[][] = []) =>
  finalizeEvent({ kind, created_at, content, tags }, who.sk);
