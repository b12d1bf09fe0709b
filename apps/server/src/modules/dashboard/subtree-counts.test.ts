import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ORG_STATUSES, ORG_TYPES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { reconcile } from '../credits/reconcile.ts';

const w = useWorld();
const DAY = 86_400_000;

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * The dashboard's organization figures computed here from the rows themselves: live
 * descendants by status and type, and creations in each growth window counted by time.
 */
function expected(
  rows: { id: string; path: string; status: string; org_type: string; created_at: string }[],
  org: { id: string; path: string },
  now: number,
) {
  const live = rows.filter((r) => r.path.startsWith(org.path) && r.id !== org.id);
  const since = (days: number) => live.filter((r) => Date.parse(r.created_at) >= now - days * DAY).length;
  const growth = (days: number) => ({ current: since(days), previous: since(2 * days) - since(days) });
  return {
    total: live.length,
    by_status: Object.fromEntries(ORG_STATUSES.map((s) => [s, live.filter((r) => r.status === s).length])),
    by_type: Object.fromEntries(ORG_TYPES.map((t) => [t, live.filter((r) => r.org_type === t).length])),
    growth: { monthly: growth(30), quarterly: growth(90), yearly: growth(365) },
  };
}

describe('maintained subtree counts', () => {
  it('stay exact through single and bulk creations, status changes, deletions and restores', async () => {
    const db = w.t.database.db;
    const next = random(20261126);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    const { orgs } = w.world;
    const parents = { super_agency: [orgs.H.id], agency: [orgs.SA1.id, orgs.SA2.id], tenant: [orgs.A1.id, orgs.A2.id, orgs.A3.id] };
    const parentType = { super_agency: 'house', agency: 'super_agency', tenant: 'agency' } as const;

    // One by one, at times spread over two years, some a minute either side of a growth
    // window's start (the counts split there between whole days and exact times).
    for (let i = 0; i < 60; i++) {
      const type = pick(['super_agency', 'agency', 'tenant'] as const);
      const offset =
        pick(['uniform', 'edge'] as const) === 'edge'
          ? sql`make_interval(days => ${pick([30, 60, 90, 180, 365, 730])}) + make_interval(mins => ${pick([-1, 1])})`
          : sql`make_interval(hours => ${Math.floor(next() * 24 * 800)})`;
      const { rows } = await sql<{ id: string }>`
        insert into organizations (name, org_type, parent_org_id, parent_org_type, status, created_at)
        values (${`Churn ${i}`}, ${type}, ${pick(parents[type])}, ${parentType[type]}, ${pick(ORG_STATUSES)}, now() - ${offset})
        returning id`.execute(db);
      if (type !== 'tenant') parents[type === 'super_agency' ? 'agency' : 'tenant'].push(rows[0]!.id);
    }
    // Bulk: one statement creating 50 tenants under several agencies.
    await sql`
      insert into organizations (name, org_type, parent_org_id, parent_org_type, created_at)
      select 'Bulk ' || g, 'tenant', (${sql.val(parents.tenant)}::uuid[])[1 + g % ${parents.tenant.length}], 'agency',
             now() - make_interval(days => g * 7)
      from generate_series(1, 50) g`.execute(db);
    // Status changes, one and many at once; a rename (no count moves); soft deletions
    // (subtrees included) and a restore.
    await sql`update organizations set status = 'suspended' where name like 'Bulk 1%'`.execute(db);
    await sql`update organizations set status = 'active' where name = 'Bulk 12'`.execute(db);
    await sql`update organizations set name = name || ' renamed' where name like 'Churn 1%'`.execute(db);
    await sql`update organizations set deleted_at = now() where name like 'Bulk 2%' or name = 'Churn 3'`.execute(db);
    await sql`update organizations set deleted_at = null where name = 'Bulk 21'`.execute(db);

    const report = await reconcile(db);
    expect(report.subtree_count_mismatches).toEqual([]);

    const rows = await db
      .selectFrom('organizations')
      .select(['id', 'path', 'status', 'org_type', 'created_at'])
      .where('deleted_at', 'is', null)
      .execute();
    const token = await w.as('H.admin');
    for (const key of ['H', 'SA1', 'SA2', 'A1', 'A3', 'T1'] as const) {
      const org = rows.find((r) => r.id === orgs[key].id)!;
      const response = await w.t.request('GET', `/api/dashboard?organization_id=${org.id}`, undefined, { token });
      expect(response.status).toBe(200);
      const figures = response.body.organizations;
      const want = expected(rows, org, Date.parse(response.body.generated_at));
      expect(
        {
          total: figures.total,
          by_status: figures.by_status,
          by_type: figures.by_type,
          growth: Object.fromEntries(
            Object.entries(figures.growth as Record<string, { current: number; previous: number }>).map(([name, g]) => [
              name,
              { current: g.current, previous: g.previous },
            ]),
          ),
        },
        key,
      ).toEqual(want);
    }
  });
});
