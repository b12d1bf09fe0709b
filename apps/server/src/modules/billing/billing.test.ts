import { describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertOrg, insertUser } from '../../test/fixtures.ts';

const w = useWorld();
const as = (who: string) => w.as(who);
const id = (key: Parameters<typeof w.id>[0]) => w.id(key);
/**
 * Where the concurrency test below proves the locks: on PostgreSQL its requests run truly
 * concurrently; PGlite runs one statement at a time, so there it checks the arithmetic only.
 */
const concurrency = inject('pgServerUrl') ? 'PostgreSQL: truly concurrent, proves the locks' : 'PGlite: serialized, arithmetic only';

const setLimit = async (who: string, orgId: string, limit: unknown) =>
  w.t.request('PUT', `/api/organizations/${orgId}/agent-limit`, { activated_agent_limit: limit }, { token: await as(who) });
async function limits() {
  const rows = await sql<{
    s: string;
  }>`select string_agg(organization_id || ':' || activated_agent_limit, ',' order by organization_id) as s from organization_billing_settings`.execute(
    w.t.database.db,
  );
  return rows.rows[0]!.s;
}

describe('agent limits', () => {
  it('lets the house admin set the own house limit, then parents share it down', async () => {
    expect((await setLimit('H.admin', id('H'), 100)).status).toBe(200);
    const sa1 = await setLimit('H.admin', id('SA1'), 60);
    expect(sa1.status).toBe(200);
    expect(sa1.body).toMatchObject({
      billing_settings: { activated_agent_limit: 60 },
      max_activated_agent_limit: 100,
      children_limit_total: 0,
    });
    expect((await setLimit('SA1.admin', id('A1'), 40)).status).toBe(200);
    expect((await setLimit('A1.admin', id('T1'), 10)).status).toBe(200);
    const audit = await w.t.database.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'billing.agent_limit')
      .where('target_id', '=', id('A1'))
      .executeTakeFirstOrThrow();
    expect(audit.details).toEqual({ before: 0, after: 40 });
  });

  it('keeps the children within the parent capacity and the parent above its children', async () => {
    const before = await limits();
    const over = await setLimit('H.admin', id('SA2'), 41);
    expect(over.status).toBe(422);
    expect(over.body.error.message).toBe(MESSAGES.billing.aboveCapacity(40));
    const below = await setLimit('H.admin', id('SA1'), 39);
    expect(below.status).toBe(422);
    expect(below.body.error.message).toBe(MESSAGES.billing.belowChildren(40));
    const houseBelow = await setLimit('H.admin', id('H'), 59);
    expect(houseBelow.status).toBe(422);
    expect(await limits()).toBe(before);
    expect((await setLimit('H.admin', id('SA2'), 40)).status).toBe(200);
  });

  it('refuses the wrong roles and relations, and bad values', async () => {
    const before = await limits();
    const cases: [string, string, unknown, number][] = [
      ['H.manager', id('SA1'), 5, 403],
      ['SA1.admin', id('SA1'), 5, 403],
      ['SA1.admin', id('T1'), 5, 403],
      ['A1.admin', id('A1'), 5, 403],
      ['T1.admin', id('T1'), 5, 403],
      ['SA1.admin', id('SA2'), 5, 404],
      ['SA1.admin', id('SA3'), 5, 404],
      ['H.admin', id('SA1'), -1, 400],
      ['H.admin', id('SA1'), 1.5, 400],
      ['H.admin', id('SA1'), 'ten', 400],
    ];
    for (const [who, org, value, status] of cases) {
      const response = await setLimit(who, org, value);
      expect(response.status, `${who} ${org} ${value}`).toBe(status);
    }
    const negative = await setLimit('H.admin', id('SA1'), -1);
    expect(negative.body.error.fields.activated_agent_limit).toBe(MESSAGES.billing.negative);
    expect(await limits()).toBe(before);
  });

  it('reports billing and capacity from the real limits', async () => {
    const billing = await w.t.request('GET', `/api/organizations/${id('A1')}/billing`, undefined, { token: await as('SA1.admin') });
    expect(billing.body).toMatchObject({
      billing_settings: { activated_agent_limit: 40, credit_balance: '0.00' },
      active_agent_count: 0,
      max_activated_agent_limit: 60,
      children_limit_total: 10,
      permissions: { manage_activated_agent_limit: true, allocate_credits: true },
    });
    const own = await w.t.request('GET', `/api/organizations/${id('A1')}/billing`, undefined, { token: await as('A1.user') });
    expect(own.body.permissions).toEqual({ manage_activated_agent_limit: false, allocate_credits: false });
    const capacity = await w.t.request('GET', `/api/organizations/${id('SA1')}/capacity`, undefined, { token: await as('SA1.manager') });
    expect(capacity.body).toMatchObject({ activated_agent_limit: 60, children_limit_total: 40, available_parent_capacity: 20 });
    expect(capacity.body.children.map((c: any) => [c.name, c.activated_agent_limit])).toEqual([
      ['Agency One', 40],
      ['Agency Two', 0],
    ]);
    expect((await w.t.request('GET', `/api/organizations/${id('H')}/billing`, undefined, { token: await as('SA1.admin') })).status).toBe(
      404,
    );
  });

  it(`never overshoots under concurrent changes below one parent (${concurrency})`, async () => {
    const parent = await insertOrg(w.t.database.db, { name: 'Contended', type: 'super_agency', parentId: id('H') });
    await w.t.database.db
      .updateTable('organization_billing_settings')
      .set({ activated_agent_limit: 0 })
      .where('organization_id', '=', id('SA2'))
      .execute();
    expect((await setLimit('H.admin', parent.id, 20)).status).toBe(200);
    await insertUser(w.t.database.db, {
      email: 'contended@admin.test',
      password: PASSWORD,
      role: 'super_agency_admin',
      organizationId: parent.id,
    });
    const children: { id: string }[] = [];
    for (let i = 0; i < 8; i++)
      children.push(await insertOrg(w.t.database.db, { name: `Contended ${i}`, type: 'agency', parentId: parent.id }));
    const token = await as('contended@admin.test');
    const results = await Promise.all(
      children.map((child) => w.t.request('PUT', `/api/organizations/${child.id}/agent-limit`, { activated_agent_limit: 6 }, { token })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    const total = await sql<{
      n: number;
    }>`select sum(s.activated_agent_limit)::int as n from organizations o join organization_billing_settings s on s.organization_id = o.id where o.parent_org_id = ${parent.id}`.execute(
      w.t.database.db,
    );
    expect(total.rows[0]!.n).toBe(18);
  }, 60_000);
});
