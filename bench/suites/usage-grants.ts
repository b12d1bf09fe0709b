import type pg from 'pg';

/** The tree whose tenants hold credit grants: shaped as the plain one, without price books. */
export const GRANTED = { superAgencies: 1, agencies: 10, tenants: 1_000 } as const;

/**
 * 1,000 more tenants under the same house, each funded with 1,000,000 credits of which three
 * grants hold 600,000: 200,000 for the benched agent only (priority 10, expiring in 30 days),
 * 200,000 for every agent (priority 0, expiring in 60 days, drawn before the open credits) and
 * 200,000 for another agent type (priority 20, no expiry: the first in order, never drawn by
 * the benched agent). Every event therefore weighs three grants and draws from the first that
 * applies. Written as the ledger would have them: the funding entry, the grants and each
 * grant's creating move, so `db:reconcile` holds.
 */
export async function grantedTree(client: pg.Client, houseId: string, agentCode: string) {
  const sa = (n: string) => `pg_temp.bench_uuid('gsa' || (${n}))`;
  const ag = (n: string) => `pg_temp.bench_uuid('gag' || (${n}))`;
  const tn = (n: string) => `pg_temp.bench_uuid('gtn' || (${n}))`;
  const fund = (n: string) => `pg_temp.bench_uuid('gfund' || (${n}))`;
  const { superAgencies, agencies, tenants } = GRANTED;
  await client.query(`
    insert into organizations (id, name, org_type, parent_org_id, parent_org_type)
    select ${sa('n')}, 'Granted Super Agency ' || n, 'super_agency', '${houseId}', 'house' from generate_series(0, ${superAgencies - 1}) n`);
  await client.query(`
    insert into organizations (id, name, org_type, parent_org_id, parent_org_type)
    select ${ag('n')}, 'Granted Agency ' || n, 'agency', ${sa(`n % ${superAgencies}`)}, 'super_agency' from generate_series(0, ${agencies - 1}) n`);
  await client.query(`
    insert into organizations (id, name, org_type, parent_org_id, parent_org_type)
    select ${tn('n')}, 'Granted Tenant ' || n, 'tenant', ${ag(`n % ${agencies}`)}, 'agency' from generate_series(0, ${tenants - 1}) n`);
  await client.query(`
    insert into organization_billing_settings (organization_id)
    select ${sa('n')} from generate_series(0, ${superAgencies - 1}) n
    union all select ${ag('n')} from generate_series(0, ${agencies - 1}) n
    union all select ${tn('n')} from generate_series(0, ${tenants - 1}) n`);
  await client.query(
    `create table bench_granted_orgs as select n, ${tn('n')} as organization_id from generate_series(0, ${tenants - 1}) n`,
  );
  const { rows } = await client.query<{ agent: string }>(`select id as agent from agent_types where code = $1`, [agentCode]);
  const agent = rows[0]!.agent;
  await client.query(
    `insert into agent_activations (organization_id, agent_type_id, status) select organization_id, $1, 'active' from bench_granted_orgs`,
    [agent],
  );
  await client.query(`
    insert into credit_ledger_entries (id, organization_id, amount, entry_type, transaction_group, balance_after, metadata)
    select ${fund('n')}, organization_id, 1000000, 'adjustment_increase', gen_random_uuid(), 1000000, '{"reason":"bench funding"}'
    from bench_granted_orgs`);
  await client.query(
    `update organization_billing_settings b set credit_balance = 1000000 from bench_granted_orgs o where b.organization_id = o.organization_id`,
  );
  await client.query(
    `with made as (
       insert into credit_grants (organization_id, granted_by, entry_id, amount, remaining, priority, expires_at, agent_type_ids, created_at)
       select o.organization_id, '${houseId}', ${fund('o.n')}, 200000, 200000, g.priority, now() + g.days * interval '1 day',
              case g.scope when 'agent' then array[$1::uuid] when 'other' then array[gen_random_uuid()] end, now()
       from bench_granted_orgs o
       cross join (values (10, 30, 'agent'), (0, 60, 'every'), (20, null, 'other')) as g(priority, days, scope)
       returning id, entry_id, amount
     )
     insert into credit_grant_moves (entry_id, grant_id, amount) select entry_id, id, amount from made`,
    [agent],
  );
  const orgs = await client.query<{ id: string }>(`select organization_id as id from bench_granted_orgs order by n`);
  return orgs.rows.map((r) => r.id);
}
