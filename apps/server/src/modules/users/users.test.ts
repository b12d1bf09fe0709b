import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES, UNSTORABLE_TEXT } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertOrg, insertUser } from '../../test/fixtures.ts';

const w = useWorld();
const as = (who: string) => w.as(who);

async function userId(who: string): Promise<string> {
  const email = w.world.users[who] ?? who;
  return (await w.t.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
}
async function usersSnapshot() {
  const rows = await sql<{
    s: string;
  }>`select string_agg(id || role || status || organization_id || coalesce(first_name, ''), ',' order by id) as s from users`.execute(
    w.t.database.db,
  );
  return rows.rows[0]!.s;
}

describe('listing users', () => {
  it('lists the caller organization by default, newest first, page size 10', async () => {
    const response = await w.t.request('GET', '/api/users', undefined, { token: await as('A1.admin') });
    expect(response.status).toBe(200);
    expect(response.body.users.every((u: any) => u.organization_id === w.world.orgs.A1.id)).toBe(true);
    expect(response.body.pagination).toMatchObject({ page: 1, page_size: 10, total: 4, total_pages: 1 });
    const created = response.body.users.map((u: any) => u.created_at);
    expect([...created].sort().reverse()).toEqual(created);
  });

  it('filters by status, role and a search over names and e-mail, and sorts', async () => {
    const token = await as('H.admin');
    const q = (query: string) => w.t.request('GET', `/api/users?organization_id=${w.world.orgs.SA1.id}&${query}`, undefined, { token });
    expect((await q('role=super_agency_manager')).body.users.map((u: any) => u.email)).toEqual(['manager@sa1.test']);
    expect((await q('search=SUPPORT@')).body.users.map((u: any) => u.email)).toEqual(['support@sa1.test']);
    expect((await q('search=test%20user')).body.pagination.total).toBe(4);
    expect((await q('search=%25')).body.pagination.total).toBe(0);
    expect((await q('status=inactive')).body.pagination.total).toBe(0);
    expect((await q('sort_by=email&sort_order=asc')).body.users.map((u: any) => u.email)).toEqual([
      'admin@sa1.test',
      'manager@sa1.test',
      'support@sa1.test',
      'user@sa1.test',
    ]);
    expect((await q('page_size=2&page=2&sort_by=email&sort_order=asc')).body.users.map((u: any) => u.email)).toEqual([
      'support@sa1.test',
      'user@sa1.test',
    ]);
    for (const bad of ['sort_by=password_hash', 'sort_order=sideways', 'page_size=1000', 'status=gone']) {
      expect((await q(bad)).status, bad).toBe(400);
    }
  });

  it('with include_subtree, searches the people of every organization below too, never above or beside', async () => {
    const q = async (who: string, query: string) =>
      (await w.t.request('GET', `/api/users?${query}`, undefined, { token: await as(who) })).body;
    // SA1's admin: its own people and A1's and T1's below it; H's and SA2's are not in reach.
    const below = await q('SA1.admin', 'include_subtree=true&search=admin@&page_size=100&sort_by=email&sort_order=asc');
    expect(below.users.map((u: any) => u.email)).toEqual(['admin@a1.test', 'admin@sa1.test', 'admin@t1.test']);
    expect(below.users.find((u: any) => u.email === 'admin@t1.test').organization).toMatchObject({ name: 'Tenant One' });
    // Without it, the organization's own.
    expect((await q('SA1.admin', 'search=admin@')).users.map((u: any) => u.email)).toEqual(['admin@sa1.test']);
    expect((await q('SA1.admin', 'include_subtree=false&search=admin@')).pagination.total).toBe(1);
    // Another organization of the subtree as the root: its own subtree only.
    expect(
      (
        await q('H.admin', `organization_id=${w.world.orgs.A1.id}&include_subtree=true&search=admin@&sort_by=email&sort_order=asc`)
      ).users.map((u: any) => u.email),
    ).toEqual(['admin@a1.test', 'admin@t1.test']);
    // Only the words true and false.
    expect((await w.t.request('GET', '/api/users?include_subtree=yes', undefined, { token: await as('SA1.admin') })).status).toBe(400);
    // A role that may not list people is refused, subtree or not.
    expect((await w.t.request('GET', '/api/users?include_subtree=true', undefined, { token: await as('SA1.user') })).status).toBe(403);
  });

  it('sorts by first name (people without one last) and by creation, either way, the id breaking ties', async () => {
    const db = w.t.database.db;
    const org = await insertOrg(db, { name: 'Sorted People', type: 'tenant', parentId: w.world.orgs.A1.id });
    const people = [
      { email: 'b@sorted.test', first: 'Bea', created: '2026-02-02T00:00:00Z' },
      { email: 'a@sorted.test', first: 'Ann', created: '2026-02-03T00:00:00Z' },
      { email: 'n@sorted.test', first: null, created: '2026-02-01T00:00:00Z' },
      { email: 'c@sorted.test', first: 'Cid', created: '2026-02-04T00:00:00Z' },
    ];
    for (const person of people) {
      const { id } = await insertUser(db, { email: person.email, password: PASSWORD, role: 'tenant_user', organizationId: org.id });
      await db
        .updateTable('users')
        .set({ first_name: person.first, created_at: new Date(person.created) })
        .where('id', '=', id)
        .execute();
    }
    const token = await as('A1.admin');
    const emails = async (query: string) =>
      (await w.t.request('GET', `/api/users?organization_id=${org.id}&${query}`, undefined, { token })).body.users.map((u: any) => u.email);
    expect(await emails('sort_by=first_name&sort_order=asc')).toEqual(['a@sorted.test', 'b@sorted.test', 'c@sorted.test', 'n@sorted.test']);
    expect(await emails('sort_by=first_name&sort_order=desc')).toEqual([
      'c@sorted.test',
      'b@sorted.test',
      'a@sorted.test',
      'n@sorted.test',
    ]);
    expect(await emails('sort_by=created_at&sort_order=asc')).toEqual(['n@sorted.test', 'b@sorted.test', 'a@sorted.test', 'c@sorted.test']);
    expect(await emails('')).toEqual(['c@sorted.test', 'a@sorted.test', 'b@sorted.test', 'n@sorted.test']);
  });

  it.each([
    ['A1.admin', 'T1', 200],
    ['A1.manager', 'A1', 200],
    ['A1.support', 'T1', 200],
    ['A1.admin', 'SA1', 404],
    ['A1.admin', 'A2', 404],
    ['A1.admin', 'SA3', 404],
    ['A1.user', 'A1', 403],
  ] as const)('%s listing users of %s -> %i', async (who, key, status) => {
    const response = await w.t.request('GET', `/api/users?organization_id=${w.world.orgs[key].id}`, undefined, { token: await as(who) });
    expect(response.status).toBe(status);
  });

  it('reads one user in scope, 404 outside', async () => {
    const tenantAdmin = await userId('T1.admin');
    expect((await w.t.request('GET', `/api/users/${tenantAdmin}`, undefined, { token: await as('A1.user') })).status).toBe(200);
    expect((await w.t.request('GET', `/api/users/${await userId('A1.admin')}`, undefined, { token: await as('T1.admin') })).status).toBe(
      404,
    );
    expect((await w.t.request('GET', `/api/users/${await userId('H.admin')}`, undefined, { token: await as('SA1.admin') })).status).toBe(
      404,
    );
  });
});

describe('profile updates', () => {
  it('lets anyone change their own names and locale, but not their e-mail or role', async () => {
    const token = await as('T1.user');
    const ok = await w.t.request('PATCH', '/api/users/me', { first_name: 'Tina', last_name: 'Tenant', preferred_locale: 'fr' }, { token });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ first_name: 'Tina', last_name: 'Tenant', preferred_locale: 'fr', role: 'tenant_user' });
    for (const body of [{ email: 'new@x.test' }, { role: 'tenant_admin' }, { first_name: 'T' }, { preferred_locale: 'klingon' }]) {
      expect((await w.t.request('PATCH', '/api/users/me', body, { token })).status, JSON.stringify(body)).toBe(400);
    }
  });

  it.each([
    ['A1.admin', 'A1.user', 200],
    ['A1.manager', 'A1.user', 200],
    ['A1.admin', 'T1.user', 200],
    ['SA1.admin', 'T1.user', 403],
    ['A1.user', 'A1.manager', 403],
    ['A1.support', 'A1.user', 403],
    ['T1.admin', 'A1.user', 404],
  ])('%s editing %s -> %i', async (who, target, status) => {
    const before = await usersSnapshot();
    const response = await w.t.request(
      'PATCH',
      `/api/users/${await userId(target)}`,
      { first_name: `Edited by ${who}` },
      { token: await as(who) },
    );
    expect(response.status).toBe(status);
    if (status !== 200) expect(await usersSnapshot()).toBe(before);
  });

  it('lets only admins change a status', async () => {
    const target = await userId('A1.user');
    const response = await w.t.request('PATCH', `/api/users/${target}`, { status: 'inactive' }, { token: await as('A1.manager') });
    expect(response.status).toBe(403);
  });
});

describe('roles', () => {
  it('changes a role to another of the same organization type, with an audit row', async () => {
    const target = await insertUser(w.t.database.db, {
      email: 'promote@a1.test',
      password: PASSWORD,
      role: 'agency_user',
      organizationId: w.world.orgs.A1.id,
    });
    const response = await w.t.request('PUT', `/api/users/${target.id}/role`, { role: 'agency_manager' }, { token: await as('A1.admin') });
    expect(response.status).toBe(200);
    expect(response.body.user.role).toBe('agency_manager');
    const audit = await w.t.database.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'user.role_change')
      .where('target_id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(audit.details).toEqual({ before: 'agency_user', after: 'agency_manager' });
  });

  it('refuses roles of another type, your own role, managers, and the last admin', async () => {
    const before = await usersSnapshot();
    const cases: [string, string, string, number, string | null][] = [
      ['A1.admin', 'A1.user', 'tenant_admin', 422, MESSAGES.users.roleNotForOrgType('tenant_admin', 'agency')],
      ['A1.admin', 'A1.user', 'emperor', 422, null],
      ['A1.admin', 'A1.admin', 'agency_user', 403, MESSAGES.users.cannotChangeOwnRole],
      ['A1.manager', 'A1.user', 'agency_manager', 403, null],
      ['SA1.admin', 'T1.user', 'tenant_admin', 403, MESSAGES.users.onlyOwnOrDirectChild],
      ['H.admin', 'T1.admin', 'tenant_user', 403, MESSAGES.users.onlyOwnOrDirectChild],
      ['A1.admin', 'T1.admin', 'tenant_user', 422, MESSAGES.users.lastAdmin],
    ];
    for (const [who, target, role, status, message] of cases) {
      const response = await w.t.request('PUT', `/api/users/${await userId(target)}/role`, { role }, { token: await as(who) });
      expect(response.status, `${who} -> ${target} as ${role}`).toBe(status);
      if (message) expect(response.body.error.message).toBe(message);
    }
    expect(await usersSnapshot()).toBe(before);
  });
});

describe('deactivation', () => {
  it('blocks the user at once: token, refresh and sign-in', async () => {
    const target = await insertUser(w.t.database.db, {
      email: 'leaving@a1.test',
      password: PASSWORD,
      role: 'agency_user',
      organizationId: w.world.orgs.A1.id,
    });
    const session = await w.t.signIn('leaving@a1.test', PASSWORD);
    const response = await w.t.request('DELETE', `/api/users/${target.id}`, undefined, { token: await as('A1.admin') });
    expect(response.status).toBe(200);
    expect(response.body.user.status).toBe('inactive');
    expect((await w.t.request('GET', '/api/users/me', undefined, { token: session.token })).status).toBe(401);
    expect((await w.t.request('POST', '/api/auth/refresh', undefined, { cookie: session.cookie })).status).toBe(401);
    expect((await w.t.request('POST', '/api/auth/sign-in', { email: 'leaving@a1.test', password: PASSWORD })).status).toBe(401);
    const audit = await w.t.database.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'user.deactivate')
      .where('target_id', '=', target.id)
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('refuses oneself, the last admin, managers and strangers', async () => {
    const before = await usersSnapshot();
    const cases: [string, string, number][] = [
      ['A1.admin', 'A1.admin', 403],
      ['A1.admin', 'T1.admin', 422],
      ['A1.manager', 'A1.user', 403],
      ['T1.admin', 'A1.user', 404],
      ['SA1.admin', 'T1.user', 403],
    ];
    for (const [who, target, status] of cases) {
      const response = await w.t.request('DELETE', `/api/users/${await userId(target)}`, undefined, { token: await as(who) });
      expect(response.status, `${who} -> ${target}`).toBe(status);
    }
    expect(await usersSnapshot()).toBe(before);
  });

  it('lets one of two admins go, never both', async () => {
    const second = await insertUser(w.t.database.db, {
      email: 'second-admin@t2.test',
      password: PASSWORD,
      role: 'tenant_admin',
      organizationId: w.world.orgs.T2.id,
    });
    const first = await insertUser(w.t.database.db, {
      email: 'first-admin@t2.test',
      password: PASSWORD,
      role: 'tenant_admin',
      organizationId: w.world.orgs.T2.id,
    });
    const token = await as('A1.admin');
    const results = await Promise.all([
      w.t.request('DELETE', `/api/users/${first.id}`, undefined, { token }),
      w.t.request('DELETE', `/api/users/${second.id}`, undefined, { token }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    const active = await w.t.database.db
      .selectFrom('users')
      .select('id')
      .where('organization_id', '=', w.world.orgs.T2.id)
      .where('status', '=', 'active')
      .execute();
    expect(active).toHaveLength(1);
  });
});

describe('text the database cannot store (issue 8)', () => {
  it('refuses a NUL or a lone surrogate in a name or a search with a 400, not a 500', async () => {
    const token = await w.as('H.admin');
    const me = await w.t.request('PATCH', '/api/users/me', { first_name: 'a\u0000b' }, { token });
    expect(me.status).toBe(400);
    expect(me.body.error.fields).toEqual({ first_name: UNSTORABLE_TEXT });
    const other = (await w.t.request('GET', '/api/users?search=user', undefined, { token })).body.users[0];
    expect((await w.t.request('PATCH', `/api/users/${other.id}`, { last_name: 'x\uDC00y' }, { token })).status).toBe(400);
    expect((await w.t.request('GET', '/api/users?search=a%00b', undefined, { token })).status).toBe(400);
  });
});
