/**
 * The demo network's ecash notes: posted once after seeding, tagged #ecash, with tokens of the
 * demo mint — the unspent ones redeem (and their sats can leave through a melt), the spent ones
 * are refused as already spent; a restart does not post them again.
 */
import { CashuMint, CashuWallet, getDecodedToken } from '@cashu/cashu-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ECASH_NOTES } from '../../server/mint/demo.ts';
import { startMintServer, total, type MintServer } from './mint-support.ts';

describe('demo ecash notes', () => {
  let m: MintServer;
  const notes = async () =>
    m.server.ctx.db.all<{ content: string }>(`SELECT e.content FROM events e JOIN event_tags t ON t.event_id = e.id WHERE t.name = 't' AND t.value = 'ecash' ORDER BY e.created_at DESC`);

  beforeAll(async () => {
    m = await startMintServer('', { DEMO: '1', DEMO_SCALE: '0.01' });
  }, 240_000);
  afterAll(async () => {
    await m?.stop();
  });

  it('posts the notes with tokens of the demo mint; unspent ones redeem, spent ones are refused', async () => {
    const rows = await notes();
    expect(rows).toHaveLength(DEMO_ECASH_NOTES.length);
    const w = new CashuWallet(new CashuMint(m.mintUrl));
    await w.loadMint();
    for (const [i, n] of DEMO_ECASH_NOTES.entries()) {
      const token = rows[i].content.match(/cashuA[A-Za-z0-9_\-+/=]+/)?.[0] ?? '';
      const decoded = getDecodedToken(token);
      expect(decoded.mint).toBe(m.mintUrl);
      expect(total(decoded.proofs)).toBe(n.amount);
      if (n.spent) await expect(w.receive(token)).rejects.toMatchObject({ code: 11001 });
      else expect(total(await w.receive(token))).toBe(n.amount);
    }
  });

  it('does not post them twice after a restart', async () => {
    await m.restart();
    expect(await notes()).toHaveLength(DEMO_ECASH_NOTES.length);
  });
});
