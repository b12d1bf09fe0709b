import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  MESSAGES,
  ORG_ATTENTION_FILTERS,
  ORG_LIST_VIEWS,
  ORG_SORT_KEYS,
  SORT_ORDERS,
  TREE_DESCENDANT_COUNT_CAP,
  UNSTORABLE_TEXT,
  type ActivityAction,
  type ListOrganizationsParams,
} from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertOrg, insertUser } from '../../test/fixtures.ts';
import { activate, fund, insertAgentType } from '../../test/usage-rows.ts';
import { listPage, listQuery, listStatements } from './list.ts';

const w = useWorld();
const as = (who: string) => w.as(who);
const id = (key: Parameters<typeof w.id>[0]) => w.id(key);

async function auditCount(action: ActivityAction) {
  const row = await w.t.database.db
    .selectFrom('audit_log')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('action', '=', action)
    .executeTakeFirstOrThrow();
  return row.n;
}

async function snapshot() {
  const rows = await sql<{ s: string }>`
    select coalesce(string_agg(o.id || o.name || o.status || o.disable_parent_invites || coalesce(o.deleted_at::text, ''), ',' order by o.id), '') as s
    from organizations o`.execute(w.t.database.db);
  return rows.rows[0]!.s;
}

describe('reading: own organization and descendants only', () => {
  // Who reads what, from the permission table: admin, manager and support list and get; user does not.
  const readers = ['H.admin', 'H.manager', 'H.support', 'SA1.admin', 'A1.manager', 'A1.support', 'T1.admin', 'T1.manager'];
  const nonReaders = ['H.user', 'SA1.user', 'A1.user', 'T1.user'];

  // For a caller at SA1: the relation of each organization and the expected status.
  const fromSA1: [Parameters<typeof w.id>[0], string, number][] = [
    ['SA1', 'own', 200],
    ['A1', 'direct child', 200],
    ['T1', 'grandchild', 200],
    ['H', 'parent', 404],
    ['SA2', 'sibling', 404],
    ['A3', "sibling's child", 404],
    ['H2', 'another house', 404],
    ['SA3', "another house's child", 404],
  ];

  it.each(fromSA1)('GET /organizations/:id of %s (%s) as SA1.admin -> %i', async (key, _relation, status) => {
    const response = await w.t.request('GET', `/api/organizations/${id(key)}`, undefined, { token: await as('SA1.admin') });
    expect(response.status).toBe(status);
    if (status === 404) expect(response.body.error.message).toBe(MESSAGES.organizations.notFound);
  });

  it.each([
    ['SA1.admin', 'T1', ['SA1', 'A1']],
    ['H.admin', 'T1', ['H', 'SA1', 'A1']],
    ['A1.manager', 'T1', ['A1']],
    ['SA1.admin', 'A1', ['SA1']],
    ['SA1.admin', 'SA1', []],
    ['T1.user', 'T1', []],
  ] as const)('%s reading %s is told the trail from its own organization down: %j', async (who, key, trail) => {
    const response = await w.t.request('GET', `/api/organizations/${id(key)}`, undefined, { token: await as(who) });
    expect(response.status).toBe(200);
    const names = await w.t.database.db
      .selectFrom('organizations')
      .select(['id', 'name'])
      .where('id', 'in', [...trail.map(id), id(key)])
      .execute();
    const nameOf = (orgId: string) => names.find((row) => row.id === orgId)!.name;
    expect(response.body.organization.ancestors).toEqual(trail.map((k) => ({ id: id(k), name: nameOf(id(k)) })));
  });

  it('answers 404 for an id that does not exist, the same as for a foreign one', async () => {
    const token = await as('SA1.admin');
    const missing = await w.t.request('GET', '/api/organizations/00000000-0000-4000-8000-000000000000', undefined, { token });
    const foreign = await w.t.request('GET', `/api/organizations/${id('SA3')}`, undefined, { token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(foreign.body);
  });

  it.each(readers)('%s may list and get its own organization', async (who) => {
    const token = await as(who);
    const list = await w.t.request('GET', '/api/organizations', undefined, { token });
    expect(list.status).toBe(200);
    expect(list.body.organization.id).toBeTruthy();
    const own = await w.t.request('GET', `/api/organizations/${list.body.organization.id}`, undefined, { token });
    expect(own.status).toBe(200);
  });

  it.each(nonReaders)('%s may not list organizations nor get another one (no organizations.list/get)', async (who) => {
    const token = await as(who);
    expect((await w.t.request('GET', '/api/organizations', undefined, { token })).status).toBe(403);
    expect((await w.t.request('GET', '/api/organizations/tree', undefined, { token })).status).toBe(403);
    // Another organization, below, beside or in another tree: refused before it is read.
    for (const other of ['T2', 'A2', 'SA3'] as const) {
      expect((await w.t.request('GET', `/api/organizations/${id(other)}`, undefined, { token })).status).toBe(403);
    }
  });

  // The user level's pages (resources, billing) show its own organization.
  const ownOf: [string, Parameters<typeof w.id>[0]][] = [
    ['H.user', 'H'],
    ['SA1.user', 'SA1'],
    ['A1.user', 'A1'],
    ['T1.user', 'T1'],
  ];
  it.each(ownOf)('%s reads its own organization: name, type, status, balance and limit', async (who, key) => {
    const response = await w.t.request('GET', `/api/organizations/${id(key)}`, undefined, { token: await as(who) });
    expect(response.status).toBe(200);
    expect(response.body.organization).toMatchObject({ id: id(key), status: 'active', credit_balance: '0.00', activated_agent_limit: 0 });
    expect(response.body.organization.name).toBeTruthy();
  });

  it('a user of a suspended organization still reads it; a user of a deleted one is signed out', async () => {
    const db = w.t.database.db;
    const token = await as('T1.user');
    await db.updateTable('organizations').set({ status: 'suspended' }).where('id', '=', id('T1')).execute();
    try {
      const suspended = await w.t.request('GET', `/api/organizations/${id('T1')}`, undefined, { token });
      expect(suspended.status).toBe(200);
      expect(suspended.body.organization.status).toBe('suspended');
      expect((await w.t.request('GET', `/api/organizations/${id('T2')}`, undefined, { token })).status).toBe(403);
    } finally {
      await db.updateTable('organizations').set({ status: 'active' }).where('id', '=', id('T1')).execute();
    }
    await db.updateTable('organizations').set({ deleted_at: new Date() }).where('id', '=', id('T1')).execute();
    try {
      expect((await w.t.request('GET', `/api/organizations/${id('T1')}`, undefined, { token })).status).toBe(401);
    } finally {
      await db.updateTable('organizations').set({ deleted_at: null }).where('id', '=', id('T1')).execute();
    }
  });

  it('refuses without a token', async () => {
    expect((await w.t.request('GET', '/api/organizations')).status).toBe(401);
    expect((await w.t.request('GET', `/api/organizations/${id('H')}`)).status).toBe(401);
  });

  it('rejects a malformed id with 400', async () => {
    const response = await w.t.request('GET', '/api/organizations/not-a-uuid', undefined, { token: await as('H.admin') });
    expect(response.status).toBe(400);
  });

  it('returns the detail with nested billing settings and counts', async () => {
    const response = await w.t.request('GET', `/api/organizations/${id('A1')}`, undefined, { token: await as('H.admin') });
    expect(response.body.organization).toMatchObject({
      id: id('A1'),
      name: 'Agency One',
      org_type: 'agency',
      parent_org_id: id('SA1'),
      status: 'active',
      credit_balance: '0.00',
      activated_agent_limit: 0,
      organization_billing_settings: { organization_id: id('A1'), credit_balance: '0.00', activated_agent_limit: 0 },
      active_agent_count: 0,
      child_count: 2,
    });
  });
});

describe('listing', () => {
  it('lists direct children by default, ordered by name, with billing settings', async () => {
    const response = await w.t.request('GET', '/api/organizations', undefined, { token: await as('SA1.admin') });
    expect(response.status).toBe(200);
    expect(response.body.organization.id).toBe(id('SA1'));
    expect(response.body.organizations.map((o: any) => o.name)).toEqual(['Agency One', 'Agency Two']);
    expect(response.body).toMatchObject({ total: 2, page: 1, page_size: 50, total_pages: 1 });
    expect(response.body.organizations[0].organization_billing_settings).toEqual({
      organization_id: id('A1'),
      credit_balance: '0.00',
      activated_agent_limit: 0,
      low_balance_threshold: '100.00',
    });
  });

  it('lists descendants of an organization in scope', async () => {
    const response = await w.t.request('GET', `/api/organizations?view=descendants&organization_id=${id('SA1')}`, undefined, {
      token: await as('H.admin'),
    });
    expect(response.body.organizations.map((o: any) => o.name)).toEqual(['Agency One', 'Agency Two', 'Tenant One', 'Tenant Two']);
    expect(response.body.total).toBe(4);
  });

  it('filters by status, type and a case-insensitive name search, with literal wildcards', async () => {
    const token = await as('H.admin');
    const q = (query: string) => w.t.request('GET', `/api/organizations?view=descendants&${query}`, undefined, { token });
    expect((await q('org_type=tenant')).body.organizations.map((o: any) => o.name)).toEqual(['Tenant One', 'Tenant Two']);
    expect((await q('search=AGENCY%20T')).body.organizations.map((o: any) => o.name)).toEqual(['Agency Three', 'Agency Two']);
    expect((await q('search=%25')).body.total).toBe(0);
    expect((await q('search=_')).body.total).toBe(0);
    expect((await q('status=suspended')).body.total).toBe(0);
  });

  it('pages in SQL with the allowed page sizes only', async () => {
    const token = await as('H.admin');
    const parent = await insertOrg(w.t.database.db, { name: 'Paging Super', type: 'super_agency', parentId: id('H') });
    for (let i = 0; i < 12; i++) {
      await insertOrg(w.t.database.db, { name: `Paged ${String(i).padStart(2, '0')}`, type: 'agency', parentId: parent.id });
    }
    const page2 = await w.t.request('GET', `/api/organizations?organization_id=${parent.id}&page=2&page_size=10`, undefined, { token });
    expect(page2.body).toMatchObject({ total: 12, page: 2, page_size: 10, total_pages: 2 });
    expect(page2.body.organizations.map((o: any) => o.name)).toEqual(['Paged 10', 'Paged 11']);
    for (const bad of ['page_size=7', 'page=0', 'page=abc', 'view=everything', 'status=deleted', 'org_type=planet']) {
      const response = await w.t.request('GET', `/api/organizations?${bad}`, undefined, { token });
      expect(response.status, bad).toBe(400);
      expect(response.body.error.code).toBe('validation_failed');
      // A page out of range is refused in words, not in the validator's own text.
      if (bad.startsWith('page=')) expect(response.body.error.message, bad).toContain(MESSAGES.generic.invalidPage);
    }
  });

  describe('sorted by name, creation, balance or limit, ties broken by id', () => {
    // Four agencies whose values order them differently for each key, two sharing a balance
    // and a limit so the id decides between them.
    const rows = [
      { name: 'Sort Bravo', created: '2026-01-03T00:00:00Z', balance: '50.00', limit: 3 },
      { name: 'Sort Alpha', created: '2026-01-01T00:00:00Z', balance: '900.00', limit: 1 },
      { name: 'Sort Delta', created: '2026-01-04T00:00:00Z', balance: '50.00', limit: 3 },
      { name: 'Sort Charlie', created: '2026-01-02T00:00:00Z', balance: '7.25', limit: 9 },
    ];
    let parentId: string;
    const ids = new Map<string, string>();
    const db = () => w.t.database.db;

    beforeAll(async () => {
      parentId = (await insertOrg(db(), { name: 'Ordering Super', type: 'super_agency', parentId: id('H') })).id;
      for (const row of rows) {
        const org = await insertOrg(db(), { name: row.name, type: 'agency', parentId });
        ids.set(row.name, org.id);
        await db()
          .updateTable('organizations')
          .set({ created_at: new Date(row.created) })
          .where('id', '=', org.id)
          .execute();
        await db()
          .updateTable('organization_billing_settings')
          .set({ credit_balance: row.balance, activated_agent_limit: row.limit })
          .where('organization_id', '=', org.id)
          .execute();
      }
    });

    // The expected order of names: by value, then by id in the same direction.
    function expected(value: (row: (typeof rows)[number]) => string | number, order: 'asc' | 'desc') {
      const sign = order === 'asc' ? 1 : -1;
      return [...rows]
        .sort((a, b) => {
          const [x, y] = [value(a), value(b)];
          const byValue = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
          return sign * (byValue || (ids.get(a.name)! < ids.get(b.name)! ? -1 : 1));
        })
        .map((row) => row.name);
    }

    it.each([
      ['name', (r: (typeof rows)[number]) => r.name],
      ['created', (r: (typeof rows)[number]) => r.created],
      ['balance', (r: (typeof rows)[number]) => Number(r.balance)],
      ['limit', (r: (typeof rows)[number]) => r.limit],
    ] as const)('by %s, ascending and descending', async (sort, value) => {
      const token = await as('H.admin');
      for (const order of ['asc', 'desc'] as const) {
        const all = await w.t.request('GET', `/api/organizations?organization_id=${parentId}&sort=${sort}&order=${order}`, undefined, {
          token,
        });
        expect(all.status).toBe(200);
        expect(
          all.body.organizations.map((o: any) => o.name),
          `${sort} ${order}`,
        ).toEqual(expected(value, order));
        // Descendants of the house take the same order among these four.
        const inTree = await w.t.request(
          'GET',
          `/api/organizations?view=descendants&search=Sort%20&sort=${sort}&order=${order}`,
          undefined,
          { token },
        );
        expect(inTree.body.organizations.map((o: any) => o.name)).toEqual(expected(value, order));
      }
    });

    it('takes only the sort keys and orders it knows', async () => {
      const token = await as('H.admin');
      for (const bad of ['sort=id', 'sort=credit_balance', 'sort=name;drop', 'order=up', 'order=DESC']) {
        const response = await w.t.request('GET', `/api/organizations?${bad}`, undefined, { token });
        expect(response.status, bad).toBe(400);
        expect(response.body.error.code).toBe('validation_failed');
      }
    });
  });

  it('refuses to list under an organization outside scope', async () => {
    const response = await w.t.request('GET', `/api/organizations?organization_id=${id('H')}`, undefined, { token: await as('SA1.admin') });
    expect(response.status).toBe(404);
  });
});

describe('where each child stands: balance against threshold, agents against limit (issue 29)', () => {
  // Under a super agency of its own: a low child, one at its limit, one near it, one calm.
  let parent: { id: string };
  const names = (response: { body: { organizations: { name: string }[] } }) => response.body.organizations.map((o) => o.name);

  beforeAll(async () => {
    const db = w.t.database.db;
    parent = await insertOrg(db, { name: 'Standing Super', type: 'super_agency', parentId: id('H') });
    const type = await insertAgentType(db, 'standing-a');
    const types = [
      type,
      await insertAgentType(db, 'standing-b'),
      await insertAgentType(db, 'standing-c'),
      await insertAgentType(db, 'standing-d'),
    ];
    const child = async (name: string, balance: string, limit: number, active: number) => {
      const org = await insertOrg(db, { name, type: 'agency', parentId: parent.id });
      if (balance !== '0') await fund(db, org.id, balance);
      await db
        .updateTable('organization_billing_settings')
        .set({ activated_agent_limit: limit })
        .where('organization_id', '=', org.id)
        .execute();
      for (const t of types.slice(0, active)) await activate(db, org.id, t.id);
      return org;
    };
    await child('Calm Agency', '200.00', 10, 1);
    await child('Full Agency', '300.00', 2, 2);
    await child('Low Agency', '99.99', 10, 0);
    await child('Near Agency', '100.00', 5, 4);
  });

  it('marks each row: low under its threshold (not at it), at its limit, near it from 80%', async () => {
    const response = await w.t.request('GET', `/api/organizations?organization_id=${parent.id}`, undefined, { token: await as('H.admin') });
    expect(response.status).toBe(200);
    expect(
      response.body.organizations.map((o: any) => [
        o.name,
        o.credit_balance,
        o.low_balance,
        o.active_agent_count,
        o.activated_agent_limit,
        o.agent_limit_standing,
      ]),
    ).toEqual([
      ['Calm Agency', '200.00', false, 1, 10, null],
      ['Full Agency', '300.00', false, 2, 2, 'at'],
      ['Low Agency', '99.99', true, 0, 10, null],
      ['Near Agency', '100.00', false, 4, 5, 'near'],
    ]);
  });

  it('filters in SQL: low balance, and at or near the limit, with totals and pages that count only the matches', async () => {
    const token = await as('H.admin');
    const q = (query: string) => w.t.request('GET', `/api/organizations?organization_id=${parent.id}&${query}`, undefined, { token });
    const low = await q('attention=low_balance');
    expect(names(low)).toEqual(['Low Agency']);
    expect(low.body).toMatchObject({ total: 1, total_pages: 1 });
    const near = await q('attention=near_limit');
    expect(names(near)).toEqual(['Full Agency', 'Near Agency']);
    expect(near.body.total).toBe(2);
    expect(names(await q('attention=near_limit&sort=limit&order=asc'))).toEqual(['Full Agency', 'Near Agency']);
    expect(names(await q('attention=near_limit&search=near'))).toEqual(['Near Agency']);
    const bad = await q('attention=at_limit');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
  });

  it('filters the descendants of the house the same way', async () => {
    const token = await as('H.admin');
    const near = await w.t.request('GET', `/api/organizations?view=descendants&attention=near_limit`, undefined, { token });
    expect(names(near)).toEqual(['Full Agency', 'Near Agency']);
    const low = await w.t.request('GET', `/api/organizations?view=descendants&attention=low_balance&search=agency`, undefined, { token });
    // The world's agencies hold nothing, so they are low too; the Standing ones above 99.99 are not.
    expect(names(low)).toEqual(['Agency One', 'Agency Three', 'Agency Two', 'Low Agency']);
  });
});

describe('the hierarchy tree', () => {
  it('gives one level with child counts and the descendant count', async () => {
    const response = await w.t.request('GET', `/api/organizations/tree?organization_id=${id('SA1')}`, undefined, {
      token: await as('SA1.manager'),
    });
    expect(response.status).toBe(200);
    expect(response.body.node).toMatchObject({ id: id('SA1'), child_count: 2, descendant_count: 4 });
    expect(response.body.children).toEqual([
      expect.objectContaining({ name: 'Agency One', child_count: 2 }),
      expect.objectContaining({ name: 'Agency Two', child_count: 0 }),
    ]);
  });

  it('counts descendants only up to the cap, so a huge tree stays fast', async () => {
    const parent = await insertOrg(w.t.database.db, { name: 'Crowded Agency', type: 'agency', parentId: id('SA1') });
    await sql`
      with crowd as (
        insert into organizations (name, org_type, parent_org_id, parent_org_type)
        select 'Crowd ' || n, 'tenant', ${parent.id}, 'agency' from generate_series(1, ${TREE_DESCENDANT_COUNT_CAP + 5}) n
        returning id)
      insert into organization_billing_settings (organization_id) select id from crowd`.execute(w.t.database.db);
    const response = await w.t.request('GET', `/api/organizations/tree?organization_id=${parent.id}`, undefined, {
      token: await as('H.admin'),
    });
    expect(response.body.node).toMatchObject({
      child_count: TREE_DESCENDANT_COUNT_CAP + 5,
      descendant_count: TREE_DESCENDANT_COUNT_CAP + 1,
    });
    expect(response.body.children).toHaveLength(200);
  }, 60_000);

  it('stays inside the caller scope', async () => {
    const response = await w.t.request('GET', `/api/organizations/tree?organization_id=${id('SA2')}`, undefined, {
      token: await as('SA1.admin'),
    });
    expect(response.status).toBe(404);
  });
});

describe('creating', () => {
  it('lets a house admin create a super agency, stored with its description and zero billing', async () => {
    const before = await auditCount('organization.create');
    const response = await w.t.request(
      'POST',
      '/api/organizations',
      { name: '  New Super  ', description: 'Reseller for the north', org_type: 'super_agency', disable_parent_invites: true },
      { token: await as('H.admin') },
    );
    expect(response.status).toBe(201);
    expect(response.body.organization).toMatchObject({
      name: 'New Super',
      description: 'Reseller for the north',
      org_type: 'super_agency',
      parent_org_id: id('H'),
      status: 'active',
      disable_parent_invites: true,
      credit_balance: '0.00',
      activated_agent_limit: 0,
    });
    expect(await auditCount('organization.create')).toBe(before + 1);
  });

  it.each([
    ['SA1.admin', 'agency', 201],
    ['A1.admin', 'tenant', 201],
    ['H.admin', 'agency', 422],
    ['SA1.admin', 'tenant', 422],
    ['A1.admin', 'super_agency', 422],
    ['H.admin', 'house', 422],
  ] as const)('%s creating a %s -> %i', async (who, type, status) => {
    const response = await w.t.request(
      'POST',
      '/api/organizations',
      { name: `Made by ${who} ${type}`, org_type: type },
      { token: await as(who) },
    );
    expect(response.status).toBe(status);
  });

  it('tells a tenant that its type cannot have children', async () => {
    const before = await snapshot();
    const response = await w.t.request('POST', '/api/organizations', { name: 'Nope', org_type: 'tenant' }, { token: await as('T1.admin') });
    expect(response.status).toBe(403);
    expect(response.body.error.message).toBe(MESSAGES.organizations.cannotCreateChildren('tenant'));
    expect(await snapshot()).toBe(before);
  });

  it.each(['H.manager', 'H.user', 'H.support', 'SA1.manager', 'A1.support'])('%s may not create', async (who) => {
    const before = await snapshot();
    const type = who.startsWith('H') ? 'super_agency' : who.startsWith('SA1') ? 'agency' : 'tenant';
    const response = await w.t.request('POST', '/api/organizations', { name: 'Not allowed', org_type: type }, { token: await as(who) });
    expect(response.status).toBe(403);
    expect(await snapshot()).toBe(before);
  });

  it('validates with the domain messages and changes nothing', async () => {
    const token = await as('H.admin');
    const before = await snapshot();
    const cases: [unknown, string, string][] = [
      [{ name: 'x', org_type: 'super_agency' }, 'name', MESSAGES.organizations.nameMin],
      [{ name: 'y'.repeat(101), org_type: 'super_agency' }, 'name', MESSAGES.organizations.nameMax],
      [{ name: 'Fine', org_type: 'planet' }, 'org_type', MESSAGES.organizations.selectType],
      [{ name: 'Fine' }, 'org_type', MESSAGES.organizations.selectType],
      [
        { name: 'Fine', org_type: 'super_agency', description: 'd'.repeat(501) },
        'description',
        'Description must be at most 500 characters.',
      ],
    ];
    for (const [body, field, message] of cases) {
      const response = await w.t.request('POST', '/api/organizations', body, { token });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.fields[field]).toBe(message);
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('updating: own organization or a direct child', () => {
  const cases: [string, Parameters<typeof w.id>[0], string, number][] = [
    ['SA1.admin', 'SA1', 'own', 200],
    ['SA1.manager', 'A1', 'direct child', 200],
    ['SA1.admin', 'T1', 'grandchild', 403],
    ['SA1.admin', 'H', 'parent', 404],
    ['SA1.admin', 'SA2', 'sibling', 404],
    ['SA1.admin', 'SA3', 'another tree', 404],
    ['SA1.user', 'SA1', 'own, as a user', 403],
    ['SA1.support', 'A1', 'child, as support', 403],
    ['T1.admin', 'T1', 'own tenant', 200],
  ];

  it.each(cases)('%s updating %s (%s) -> %i', async (who, key, _relation, status) => {
    const before = await snapshot();
    const response = await w.t.request(
      'PATCH',
      `/api/organizations/${id(key)}`,
      { disable_parent_invites: true },
      { token: await as(who) },
    );
    expect(response.status).toBe(status);
    if (status === 403 && _relation === 'grandchild') {
      expect(response.body.error.message).toBe(MESSAGES.organizations.onlyOwnOrDirectChild);
    }
    if (status !== 200) expect(await snapshot()).toBe(before);
    else expect(response.body.organization.disable_parent_invites).toBe(true);
  });

  it('changes name and status and writes an audit row with before and after', async () => {
    const before = await auditCount('organization.update');
    const response = await w.t.request(
      'PATCH',
      `/api/organizations/${id('A2')}`,
      { name: 'Agency Two Renamed', status: 'suspended' },
      { token: await as('SA1.admin') },
    );
    expect(response.status).toBe(200);
    expect(response.body.organization).toMatchObject({ name: 'Agency Two Renamed', status: 'suspended' });
    expect(await auditCount('organization.update')).toBe(before + 1);
    const audit = await w.t.database.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'organization.update')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({
      before: { name: 'Agency Two', status: 'active' },
      after: { name: 'Agency Two Renamed', status: 'suspended' },
    });
    await w.t.request(
      'PATCH',
      `/api/organizations/${id('A2')}`,
      { name: 'Agency Two', status: 'active' },
      { token: await as('SA1.admin') },
    );
  });

  it('refuses an empty update, a bad status and a short name', async () => {
    const token = await as('SA1.admin');
    for (const body of [{}, { status: 'deleted' }, { name: 'a' }, { disable_parent_invites: 'yes' }]) {
      const response = await w.t.request('PATCH', `/api/organizations/${id('A1')}`, body, { token });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('deleting: an empty child, by admins of its parent', () => {
  it('soft-deletes an empty child, which then disappears from lists and reads', async () => {
    const token = await as('A1.admin');
    const created = await w.t.request('POST', '/api/organizations', { name: 'Short Lived', org_type: 'tenant' }, { token });
    const childId = created.body.organization.id;
    const before = await auditCount('organization.delete');
    expect((await w.t.request('DELETE', `/api/organizations/${childId}`, undefined, { token })).status).toBe(204);
    expect(await auditCount('organization.delete')).toBe(before + 1);
    expect((await w.t.request('GET', `/api/organizations/${childId}`, undefined, { token })).status).toBe(404);
    const list = await w.t.request('GET', '/api/organizations?view=descendants', undefined, { token });
    expect(list.body.organizations.map((o: any) => o.id)).not.toContain(childId);
    const row = await w.t.database.db.selectFrom('organizations').select('deleted_at').where('id', '=', childId).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect((await w.t.request('DELETE', `/api/organizations/${childId}`, undefined, { token })).status).toBe(404);
  });

  it('revokes its pending invitations in the same step, so no link leads into it', async () => {
    const token = await as('A1.admin');
    const created = await w.t.request('POST', '/api/organizations', { name: 'Invited Into', org_type: 'tenant' }, { token });
    const childId = created.body.organization.id;
    const invited = await w.t.request(
      'POST',
      '/api/invitations',
      { email: 'someone@invited-into.test', first_name: 'Some', last_name: 'One', role: 'tenant_user', organization_id: childId },
      { token },
    );
    expect(invited.status).toBe(201);
    expect((await w.t.request('DELETE', `/api/organizations/${childId}`, undefined, { token })).status).toBe(204);
    const rows = await w.t.database.db
      .selectFrom('invitations')
      .select(['status', 'revoked_at'])
      .where('organization_id', '=', childId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'revoked' });
    expect(rows[0]!.revoked_at).not.toBeNull();
  });

  it('explains each refusal and changes nothing', async () => {
    const token = await as('SA1.admin');
    const withUser = await insertOrg(w.t.database.db, { name: 'Has People', type: 'agency', parentId: id('SA1') });
    await insertUser(w.t.database.db, {
      email: 'person@haspeople.test',
      password: PASSWORD,
      role: 'agency_user',
      organizationId: withUser.id,
    });
    const withCredits = await insertOrg(w.t.database.db, { name: 'Has Credits', type: 'agency', parentId: id('SA1') });
    await w.t.database.db
      .updateTable('organization_billing_settings')
      .set({ credit_balance: '0.01' })
      .where('organization_id', '=', withCredits.id)
      .execute();
    const before = await snapshot();
    const cases: [string, string, number, string | null][] = [
      ['SA1.admin', id('A1'), 422, MESSAGES.organizations.deleteHasChildren],
      ['SA1.admin', withUser.id, 422, MESSAGES.organizations.deleteHasActiveUsers],
      ['SA1.admin', withCredits.id, 422, MESSAGES.organizations.deleteHasBalance],
      ['SA1.admin', id('SA1'), 403, MESSAGES.organizations.deleteOnlyParentAdmins],
      ['SA1.admin', id('T2'), 403, MESSAGES.organizations.deleteOnlyParentAdmins],
      ['SA1.manager', id('A2'), 403, null],
      ['SA1.support', id('A2'), 403, null],
      ['SA1.admin', id('SA2'), 404, null],
      ['SA1.admin', id('SA3'), 404, null],
    ];
    for (const [who, target, status, message] of cases) {
      const response = await w.t.request('DELETE', `/api/organizations/${target}`, undefined, {
        token: who === 'SA1.admin' ? token : await as(who),
      });
      expect(response.status, `${who} -> ${target}`).toBe(status);
      if (message) expect(response.body.error.message).toBe(message);
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('descendants and verify-children', () => {
  it('checks direct children against the descendant procedure', async () => {
    const response = await w.t.request('GET', `/api/organizations/${id('SA2')}/verify-children`, undefined, { token: await as('H.admin') });
    expect(response.status).toBe(200);
    expect(response.body.parentOrganization).toMatchObject({ id: id('SA2'), org_type: 'super_agency' });
    expect(response.body.childOrganizations.map((c: any) => c.name)).toEqual(['Agency Three']);
    // SA2 itself and its one agency.
    expect(response.body.summary).toEqual({ directChildrenCount: 1, rpcReturnedIds: 2, childOrgsRetrieved: 1 });
  });

  it.each([
    ['A1.admin', 'A1', 200],
    ['SA1.admin', 'A1', 200],
    ['A1.admin', 'SA1', 404],
    ['T1.admin', 'T1', 403],
    ['A1.manager', 'A1', 403],
    ['H.support', 'H', 403],
  ] as const)('%s verifying %s -> %i', async (who, key, status) => {
    const response = await w.t.request('GET', `/api/organizations/${id(key)}/verify-children`, undefined, { token: await as(who) });
    expect(response.status).toBe(status);
  });
});

describe('list statements compiled once per shape', () => {
  it('send the same text and values as the builders, for every shape and whatever the values', () => {
    const db = w.t.database.db;
    const statements = listStatements(db);
    const anchors = [
      { id: '00000000-0000-4000-8000-000000000001', path: '/00000000-0000-4000-8000-000000000001/' },
      { id: '00000000-0000-4000-8000-000000000002', path: '/a_b%c\\/' },
    ];
    for (const view of ORG_LIST_VIEWS)
      for (const sort of ORG_SORT_KEYS)
        for (const order of SORT_ORDERS)
          for (const status of [undefined, 'suspended'] as const)
            for (const org_type of [undefined, 'tenant'] as const)
              for (const search of [undefined, '', '50%_off'])
                for (const attention of [undefined, ...ORG_ATTENTION_FILTERS]) {
                  for (const [n, anchor] of anchors.entries()) {
                    const query: ListOrganizationsParams = {
                      view,
                      sort,
                      order,
                      status,
                      org_type,
                      search,
                      attention,
                      page: n + 1,
                      page_size: 10 * (n + 1),
                    };
                    const { page, count } = statements(anchor, query);
                    const expected = [
                      listPage(db, anchor, query).compile(),
                      listQuery(db, anchor, query).select(sql<number>`count(*)::int`.as('n')).compile(),
                    ];
                    expect([page, count].map((c) => [c.sql, c.parameters])).toEqual(expected.map((c) => [c.sql, c.parameters]));
                  }
                }
  });
});

describe('query plans', () => {
  // With sequential scans priced out, a plan still scanning the whole table means no
  // index can serve the query: every list must have one, so a page costs the same on a
  // million organizations.
  async function plan(compiled: { sql: string; parameters: readonly unknown[] }) {
    return w.t.database.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      // A plain EXPLAIN takes no parameters: inline them as literals.
      const inlined = compiled.sql.replace(/\$(\d+)/g, (_m, n) => `'${String(compiled.parameters[Number(n) - 1]).replace(/'/g, "''")}'`);
      const result = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${inlined}`).execute(trx);
      return result.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  const plans: [string, Partial<ListOrganizationsParams>][] = [
    ['children', { view: 'children' }],
    ['descendants', { view: 'descendants' }],
    ['descendants of one type', { view: 'descendants', org_type: 'tenant' }],
    ...ORG_ATTENTION_FILTERS.flatMap((attention): [string, Partial<ListOrganizationsParams>][] => [
      [`children with ${attention}`, { view: 'children', attention }],
      [`descendants with ${attention}`, { view: 'descendants', attention }],
    ]),
    ...ORG_SORT_KEYS.flatMap((sort) =>
      (['asc', 'desc'] as const).flatMap((order): [string, Partial<ListOrganizationsParams>][] => [
        [`children by ${sort} ${order}`, { view: 'children', sort, order }],
        [`descendants by ${sort} ${order}`, { view: 'descendants', sort, order }],
      ]),
    ),
  ];

  it.each(plans)('the %s list is served by an index', async (_name, params) => {
    const anchor = await w.t.database.db
      .selectFrom('organizations')
      .select(['id', 'path'])
      .where('id', '=', id('SA1'))
      .executeTakeFirstOrThrow();
    const query: ListOrganizationsParams = { view: 'children', page: 1, page_size: 50, sort: 'name', order: 'asc', ...params };
    for (const compiled of [
      listPage(w.t.database.db, anchor, query).compile(),
      listQuery(w.t.database.db, anchor, query).select(sql<number>`count(*)::int`.as('n')).compile(),
    ]) {
      const rows = await plan(compiled);
      expect(rows).toMatch(/Index/);
      expect(rows).not.toMatch(/Seq Scan on organizations/);
    }
  });
});

describe('text the database cannot store (issue 8)', () => {
  it('refuses a NUL or a lone surrogate in a name, a description or a search with a 400, not a 500', async () => {
    const token = await w.as('H.admin');
    for (const name of ['Acme\u0000 Ltd', 'Acme \uD800 Ltd']) {
      const created = await w.t.request('POST', '/api/organizations', { name, org_type: 'super_agency' }, { token });
      expect(created.status).toBe(400);
      expect(created.body.error.fields).toEqual({ name: UNSTORABLE_TEXT });
    }
    const patched = await w.t.request('PATCH', `/api/organizations/${w.id('SA1')}`, { description: 'a\u0000b' }, { token });
    expect(patched.status).toBe(400);
    expect((await w.t.request('GET', '/api/organizations?search=%00', undefined, { token })).status).toBe(400);
  });
});
