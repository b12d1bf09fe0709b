import { describe, expect, it } from 'vitest';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { compileOnce } from './compile-once.ts';
import type { DB } from './schema.ts';

// Compiles only: nothing reaches a database.
const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

interface Values {
  org: string;
  pattern: string;
  limit: number;
}

const query = (v: Values) =>
  db
    .selectFrom('organizations')
    .select(['id', sql<number>`${7}::int`.as('seven')])
    .where('parent_org_id', '=', v.org)
    .where('status', '=', 'active')
    .where('path', 'like', v.pattern)
    .limit(v.limit);

describe('compileOnce', () => {
  it('sends the text and values the builder compiles with the real values', () => {
    const bind = compileOnce(query);
    for (const values of [
      { org: 'a', pattern: '/a/%', limit: 50 },
      { org: 'b', pattern: '/b/%', limit: 10 },
    ]) {
      const expected = query(values).compile();
      const bound = bind(values);
      expect(bound.sql).toBe(expected.sql);
      expect(bound.parameters).toEqual(expected.parameters);
    }
  });

  it('refuses a value the builder changes on its way into the query, which could not be rebound', () => {
    expect(() => compileOnce((v: Values) => query({ ...v, pattern: `${v.pattern}%` }))).toThrow(/derived from a value/);
  });
});
