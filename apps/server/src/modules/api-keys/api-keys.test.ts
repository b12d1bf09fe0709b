import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useWorld } from '../../test/harness.ts';
import { keyListQuery } from './api-keys.service.ts';

const w = useWorld();
const db = () => w.t.database.db;

describe('query plans', () => {
  // With sequential scans priced out, a plan still scanning a whole table means no index
  // can serve the query: an organization's key list must have one.
  async function plan(compiled: { sql: string; parameters: readonly unknown[] }) {
    return db()
      .transaction()
      .execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        // A plain EXPLAIN takes no parameters: inline them as literals.
        const inlined = compiled.sql.replace(/\$(\d+)/g, (_m, n) => `'${String(compiled.parameters[Number(n) - 1]).replace(/'/g, "''")}'`);
        const result = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${inlined}`).execute(trx);
        return result.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
  }

  it('API keys is served by an index', async () => {
    const rows = await plan(keyListQuery(db(), w.id('A1')).compile());
    expect(rows).toMatch(/Index.* on api_keys/);
    expect(rows).not.toMatch(/Seq Scan on api_keys/);
  });
});
