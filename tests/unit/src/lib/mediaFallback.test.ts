import { describe, expect, it } from 'vitest';
import { parseBundle } from '../../../../core/bundle.ts';
import type { CacheObject } from '../../../../core/types.ts';
import { candidatesFor, fileNameOf } from '../../../../src/lib/mediaFallback.ts';

const SHA = 'ab'.repeat(32);
const ALICE = 'a'.repeat(64);

describe('media server fallback (spec Avatar)', () => {
  it('takes the file name from the failed URL and joins it to each http(s) server once', () => {
    expect(fileNameOf(`https://cdn.example/media/${SHA}.png?x=1`)).toBe(`${SHA}.png`);
    expect(fileNameOf('https://cdn.example/')).toBeNull();
    expect(fileNameOf('not a url')).toBeNull();
    expect(candidatesFor(`https://dead.example/${SHA}.png`, ['https://b1.example/', 'wss://relay.example', 'https://b2.example', 'https://b1.example', 'https://dead.example'])).toEqual([
      `https://b1.example/${SHA}.png`,
      `https://b2.example/${SHA}.png`,
    ]);
    expect(candidatesFor('https://dead.example/', ['https://b1.example'])).toEqual([]);
  });

  it('the bundle gives each profile the servers of its newest kind-10063 list', () => {
    const meta = { id: '1'.repeat(64), pubkey: ALICE, created_at: 10, kind: 0, tags: [], content: JSON.stringify({ name: 'alice', picture: `https://dead.example/${SHA}.png` }), sig: 'f'.repeat(128) };
    const list = (at: number, servers: string[]) => ({
      id: String(at).padStart(64, '2'),
      pubkey: ALICE,
      created_at: at,
      kind: 10063,
      tags: [...servers.map((s) => ['server', s]), ['other', 'x']],
      content: '',
      sig: 'f'.repeat(128),
    });
    const objects = [meta, list(30, ['https://new.example', 'ftp://no.example']), list(20, ['https://old.example'])] as unknown as CacheObject[];
    const { profiles, notes } = parseBundle(objects);
    expect(profiles[ALICE].mediaServers).toEqual(['https://new.example']);
    expect(notes).toEqual([]);
  });
});
