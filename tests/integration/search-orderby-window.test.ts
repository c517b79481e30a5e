/**
 * SQLite's orderby:<count> search reads its window first and the counts after, in event_id order through
 * event_stats_metrics (server/search/sql.ts): it must return what the one-statement form returns, page by
 * page, ties included, and its plan must keep to that covering index. SQLite only: PostgreSQL runs the
 * one-statement form itself.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEvent } from '../../server/ingest/apply.ts';
import { parseQuery } from '../../server/search/grammar.ts';
import { buildSearch } from '../../server/search/sql.ts';
import type { Database } from '../../server/store/db.ts';
import { openSqlite } from '../../server/store/sqlite.ts';
import { person, sign } from './people.ts';

describe('orderby window on SQLite', () => {
  let dir: string;
  let db: Database;
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strucc-orderby-'));
    db = openSqlite(join(dir, 'strucc.sqlite'));
    const authors = [person(), person(), person()];
    const fans = Array.from({ length: 6 }, () => person());
    const notes = Array.from({ length: 60 }, (_, i) =>
      sign(authors[i % 3], 1, now - 5000 + i * 10, i % 4 === 3 ? `Tea délután ${i}` : `Reggeli kávé és pogácsa ${i}`),
    );
    const events = [...notes];
    // Likes, replies and reposts in uneven numbers, so the counts both differ and tie (ties go by time, then id).
    notes.forEach((n, i) => {
      for (let f = 0; f < i % 5; f++) events.push(sign(fans[f], 7, n.created_at + 1 + f, '+', [['e', n.id], ['p', n.pubkey]]));
      for (let f = 0; f < i % 3; f++) events.push(sign(fans[f + 2], 1, n.created_at + 2 + f, `Válasz ${i}`, [['e', n.id, '', 'root'], ['p', n.pubkey]]));
      if (i % 7 === 0) events.push(sign(fans[5], 6, n.created_at + 3, '', [['e', n.id, ''], ['p', n.pubkey]]));
    });
    await db.transaction(async (tx) => {
      for (const e of events) await applyEvent(tx, e, now);
    });
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const run = async (query: string, limit: number, offset: number, plainWindow: boolean) => {
    const built = buildSearch(parseQuery(query, now), { dialect: 'sqlite', defaultKinds: [1], page: { limit, offset }, plainWindow });
    return { sql: built.sql, rows: await db.all<{ id: string; k: number }>(built.sql, built.params) };
  };

  it.each(['kávé orderby:likes', 'kávé orderby:score', 'orderby:replies', 'tea OR pogácsa orderby:replies', 'orderby:likes since:2020-01-01'])(
    '%s: the same pages as the one-statement window',
    async (query) => {
      for (const [limit, offset] of [[20, 0], [20, 20], [7, 3], [100, 0]]) {
        const two = await run(query, limit, offset, false);
        const one = await run(query, limit, offset, true);
        expect(two.sql).toContain('INDEXED BY event_stats_metrics');
        expect(one.sql).not.toContain('event_stats_metrics');
        expect(two.rows).toEqual(one.rows);
        if (offset === 0) expect(two.rows.length).toBeGreaterThan(Math.min(limit, 10) - 1);
      }
      const top = (await run(query, 100, 0, false)).rows.map((r) => Number(r.k));
      expect(new Set(top).size).toBeGreaterThan(1);
    },
  );

  it('keeps the one-statement form where a count bounds the window itself', async () => {
    const { sql } = await run('kávé orderby:likes minlikes:2', 20, 0, false);
    expect(sql).not.toContain('event_stats_metrics');
  });

  it('reads the counts through the covering index, the window from the engine', async () => {
    const { sql } = await run('kávé orderby:likes', 20, 0, false);
    const built = buildSearch(parseQuery('kávé orderby:likes', now), { dialect: 'sqlite', defaultKinds: [1], page: { limit: 20, offset: 0 } });
    const plan = (await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, built.params)).map((r) => r.detail);
    expect(plan).toContain('SEARCH s USING COVERING INDEX event_stats_metrics (event_id=?) LEFT-JOIN');
    expect(plan.filter((d) => /^SCAN (search_docs|d|event_stats|s)\b/.test(d))).toEqual([]);
  });
});
