/**
 * Spec (Avatar): when a picture fails to load, the same file is looked for on the author's other
 * media servers (their kind-10063 Blossom list) with a HEAD request each, before the placeholder.
 * Each picture is probed once per page, however many avatars of the author are on screen.
 */

const probes = new Map<string, Promise<string | null>>();

/** The file name a Blossom server would hold: the last path segment (sha256 plus extension). */
export function fileNameOf(url: string): string | null {
  try {
    const name = new URL(url).pathname.split('/').pop();
    return name ? name : null;
  } catch {
    return null;
  }
}

/** Each server joined with the file name, skipping the URL that already failed and non-http servers. */
export function candidatesFor(picture: string, servers: readonly string[]): string[] {
  const name = fileNameOf(picture);
  if (!name) return [];
  const out: string[] = [];
  for (const server of servers) {
    if (!/^https?:\/\//i.test(server)) continue;
    const url = `${server.replace(/\/+$/, '')}/${name}`;
    if (url !== picture && !out.includes(url)) out.push(url);
  }
  return out;
}

async function probe(candidates: string[]): Promise<string | null> {
  for (const url of candidates) {
    try {
      const res = await fetch(url, { method: 'HEAD' });
      if (res.ok) return url;
    } catch {
      // Unreachable or refused by CORS: the next server may answer.
    }
  }
  return null;
}

/** The first of the author's media servers that has the file, or null. */
export function findOnMediaServers(picture: string, servers: readonly string[]): Promise<string | null> {
  const candidates = candidatesFor(picture, servers);
  if (candidates.length === 0) return Promise.resolve(null);
  const key = candidates.join(' ');
  let found = probes.get(key);
  if (!found) {
    found = probe(candidates);
    probes.set(key, found);
  }
  return found;
}
