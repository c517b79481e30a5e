/**
 * The request mix of `npm run load` (bench/load.ts), aimed at the people, notes and threads of the
 * server's own network; bench/command-cpu.ts sends its commands one at a time.
 */
import WebSocket from 'ws';

const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];

/** [command, weight, arguments]. */
export type Mix = [string, number, () => Record<string, unknown>][];

interface Ev {
  id: string;
  pubkey: string;
  kind: number;
  content: string;
  tags: string[][];
}

/** Events of the server's network through its own relay endpoint, to aim the requests at real people and threads. */
async function sample(wsBase: string, filter: Record<string, unknown>): Promise<Ev[]> {
  const ws = new WebSocket(`${wsBase}/relay`);
  const out: Ev[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify(['REQ', 's', filter])));
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as unknown[];
      if (msg[0] === 'EVENT') out.push(msg[2] as Ev);
      else if (msg[0] === 'EOSE' || msg[0] === 'CLOSED') resolve();
    });
  });
  ws.terminate();
  return out;
}

/** The network a target serves, sampled through its relay endpoint, and the request mix aimed at it. */
export async function requestMix(wsBase: string, log: (msg: string) => void = () => undefined): Promise<Mix> {
  const [contacts, notes, profiles] = await Promise.all([
    sample(wsBase, { kinds: [3], limit: 500 }),
    sample(wsBase, { kinds: [1], limit: 500 }),
    sample(wsBase, { kinds: [0], limit: 500 }),
  ]);
  const viewers = contacts.map((e) => e.pubkey);
  const people = profiles.map((e) => e.pubkey);
  const noteIds = notes.map((e) => e.id);
  const threads = [...new Set(notes.flatMap((e) => e.tags.filter((t) => t[0] === 'e').map((t) => t[1])))];
  const words = [...new Set(notes.flatMap((e) => e.content.toLowerCase().split(/[^\p{L}]+/u).filter((w) => w.length >= 5 && w.length <= 12)))].slice(0, 200);
  if (!viewers.length || !people.length || !noteIds.length) throw new Error('the server holds no network to aim at (empty store?)');
  log(`targets: ${viewers.length} viewers, ${people.length} profiles, ${noteIds.length} notes, ${threads.length} threads`);

  const viewer = () => pick(viewers);
  // The mix a feed-reading client sends.
  const mix: Mix = [
    ['mega_feed_directive', 30, () => ({ spec: JSON.stringify({ id: 'latest', kind: 'notes' }), user_pubkey: viewer(), limit: 20 })],
    ['feed', 10, () => ({ pubkey: viewer(), notes: 'follows', limit: 20, user_pubkey: viewer() })],
    ['thread_view', 20, () => ({ event_id: pick(threads.length ? threads : noteIds), limit: 20, user_pubkey: viewer() })],
    ['user_profile', 15, () => ({ pubkey: pick(people), user_pubkey: viewer() })],
    ['user_infos', 10, () => ({ pubkeys: Array.from({ length: 20 }, () => pick(people)) })],
    ['events', 10, () => ({ event_ids: Array.from({ length: 10 }, () => pick(noteIds)), user_pubkey: viewer() })],
    ['search', 5, () => ({ query: pick(words), limit: 20, user_pubkey: viewer() })],
  ];
  return mix;
}

