import { bech32 } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import type { NostrEvent } from '../context.ts';
import { ZAPPER } from './accounts.ts';
import { encodeBolt11 } from './bolt11.ts';
import { ActorPicker, RELAY_HINT } from './interactions.ts';
import { Network } from './model.ts';
import { WeightedPicker, type Rng } from './rng.ts';
import { RELAY_URLS } from './text.ts';
import { ZAP_MESSAGES } from './text-social.ts';

const utf8 = new TextEncoder();

/** Typical zap sizes in sats, weighted the way people round them. */
const AMOUNTS: Array<[number, number]> = [
  [21, 22], [50, 6], [69, 4], [100, 14], [210, 8], [500, 8], [1000, 12], [2100, 6], [5000, 5], [10000, 4], [21000, 2], [50000, 1], [100000, 0.6],
];
const AMOUNT_PICKER = new WeightedPicker(AMOUNTS.map(([, w]) => w));

function pickAmount(rng: Rng): number {
  return rng.chance(0.15) ? rng.range(21, 3000) : AMOUNTS[AMOUNT_PICKER.pick(rng)][0];
}

/** The LNURL-pay endpoint of a lightning address, bech32-encoded as zap requests carry it. */
function lnurl(username: string, domain: string): string {
  const url = `https://${domain}/.well-known/lnurlp/${username}`;
  return bech32.encode('lnurl', bech32.toWords(utf8.encode(url)), false);
}

/**
 * NIP-57 zaps: the sender signs a 9734 zap request, the demo lightning service pays a
 * real BOLT-11 invoice whose description hash commits to that request, and signs the
 * 9735 receipt. A few zaps go to articles and carry their `a` address too.
 */
export function zapPhase(net: Network): NostrEvent[] {
  const rng = net.rng.fork('zaps');
  const actors = new ActorPicker(net);
  const nodeSecretKey = sha256(utf8.encode(`strucc-demo-node:${net.rng.seed}`));
  const pool = [...net.notes, ...net.replies];
  const picker = new WeightedPicker(pool.map((p) => (p.depth === 0 ? p.appeal : p.appeal * 0.3)));
  const out: NostrEvent[] = [];
  for (let k = 0; k < net.counts.zaps * 2 && out.length < net.counts.zaps; k++) {
    const onArticle = net.articles.length > 0 && rng.chance(0.05);
    const target = onArticle ? rng.pick(net.articles) : pool[picker.pick(rng)];
    const receiver = net.users[target.author];
    const sender = actors.pick(rng, receiver);
    const requestedAt = net.after(rng, target.event.created_at, 5 * 3600);
    if (!sender || requestedAt === null) continue;
    const amount = pickAmount(rng);
    const requestTags = [
      ['relays', RELAY_HINT, ...rng.sample(RELAY_URLS.slice(1), 2)],
      ['amount', String(amount * 1000)],
      ['lnurl', lnurl(receiver.username, net.nip05Domain)],
      ['p', receiver.account.pubkey],
      ['e', target.event.id],
    ];
    if (target.address) requestTags.push(['a', target.address]);
    const request = net.emit(
      { kind: 9734, created_at: requestedAt, tags: requestTags, content: rng.pick(ZAP_MESSAGES) },
      sender.account.secretKey,
    );
    if (!request) continue;
    const description = JSON.stringify(request);
    const preimage = rng.bytes(32);
    const bolt11 = encodeBolt11({
      amountSats: amount,
      timestamp: requestedAt,
      paymentHash: sha256(preimage),
      paymentSecret: rng.bytes(32),
      descriptionHash: sha256(utf8.encode(description)),
      expirySeconds: 3600,
      nodeSecretKey,
    });
    const receiptTags = [['p', receiver.account.pubkey], ['P', sender.account.pubkey], ['e', target.event.id]];
    if (target.address) receiptTags.push(['a', target.address]);
    receiptTags.push(['bolt11', bolt11], ['description', description], ['preimage', bytesToHex(preimage)]);
    const paidAt = Math.min(net.now, requestedAt + rng.range(1, 4));
    const receipt = net.emit({ kind: 9735, created_at: paidAt, tags: receiptTags, content: '' }, ZAPPER.secretKey);
    if (!receipt) continue;
    net.referenced.add(target.event.id);
    out.push(receipt);
  }
  return out.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
}
