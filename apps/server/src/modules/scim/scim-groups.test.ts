import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES, scimGroupSchema, scimListResponseSchema, scimUserSchema, type ScimGroup } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { expectScimError, makeScimToken, scimClient, userBody, type ScimClient } from '../../test/scim-client.ts';

const w = useWorld();
const db = () => w.t.database.db;
const m = MESSAGES.identity;
const pageSchema = scimListResponseSchema(scimGroupSchema);

let scim: ScimClient;
let tokenId: string;

beforeAll(async () => {
  const token = await makeScimToken(w, 'A1.admin', w.id('A1'), 'Okta');
  tokenId = token.id;
  scim = scimClient(w.t, token.secret);
});

const groupBody = (displayName: string, members: string[] = [], extra: Record<string, unknown> = {}) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
  displayName,
  members: members.map((value) => ({ value })),
  ...extra,
});

async function person(email: string): Promise<string> {
  const answer = await scim.post('/Users', userBody(email));
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return scimUserSchema.parse(answer.body).id;
}

async function group(displayName: string, members: string[] = []): Promise<ScimGroup> {
  const answer = await scim.post('/Groups', groupBody(displayName, members));
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return scimGroupSchema.parse(answer.body);
}

const roleOf = async (id: string) => (await db().selectFrom('users').select('role').where('id', '=', id).executeTakeFirstOrThrow()).role;
const idOf = async (email: string) =>
  (await db().selectFrom('users').select('id').where(sql`lower(email)`, '=', email).executeTakeFirstOrThrow()).id;

/** Every person outside the token's organization, with role and status: provisioning must never change them. */
const othersDigest = () =>
  db()
    .selectFrom('users')
    .select(['id', 'role', 'status', 'updated_at'])
    .where('organization_id', '<>', w.id('A1'))
    .orderBy('id')
    .execute();

describe('groups and roles', () => {
  it('a group named after a role of the organization gives it; the highest wins; leaving every role group is the default role', async () => {
    const before = await othersDigest();
    const ann = await person('ann@a1.test');
    const managers = await group('Managers', [ann]);
    expect(managers.members).toEqual([{ value: ann, display: 'Ann Lee', $ref: `http://console.test/scim/v2/Users/${ann}` }]);
    expect(await roleOf(ann)).toBe('agency_manager');

    const admins = await group('agency_admin');
    const added = await scim.patch(`/Groups/${admins.id}`, [{ op: 'Add', path: 'members', value: [{ value: ann }] }]);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(await roleOf(ann)).toBe('agency_admin');
    expect(
      (await db().selectFrom('users').select('admin_since').where('id', '=', ann).executeTakeFirstOrThrow()).admin_since,
    ).not.toBeNull();

    // Okta's shape of a removal.
    const left = await scim.patch(`/Groups/${admins.id}`, [{ op: 'remove', path: `members[value eq "${ann}"]` }]);
    expect(scimGroupSchema.parse(left.body).members).toEqual([]);
    expect(await roleOf(ann)).toBe('agency_manager');

    // Entra's shape: the value lists who leaves.
    await scim.patch(`/Groups/${managers.id}`, [{ op: 'Remove', path: 'members', value: [{ value: ann }] }]);
    expect(await roleOf(ann)).toBe('agency_user');

    const audit = await db()
      .selectFrom('audit_log')
      .select(['actor_user_id', 'details'])
      .where('action', '=', 'scim.group_changed')
      .where('target_id', '=', managers.id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.actor_user_id)).toEqual([null, null]);
    expect(audit[0]!.details).toMatchObject({
      change: 'created',
      group: 'Managers',
      role: 'agency_manager',
      scim_token: { id: tokenId, name: 'Okta' },
      role_changes: [{ user_id: ann, before: 'agency_user', after: 'agency_manager' }],
    });
    expect(audit[1]!.details).toMatchObject({
      removed: 1,
      role_changes: [{ user_id: ann, before: 'agency_manager', after: 'agency_user' }],
    });
    expect(await othersDigest()).toEqual(before);
  });

  it('a group that names no role changes nobody; renaming it to a role gives its members that role', async () => {
    const support = await idOf(w.world.users['A1.support']!);
    const sales = await group('Sales', [support]);
    expect(await roleOf(support)).toBe('agency_support');
    const bob = await person('bob@a1.test');
    await scim.patch(`/Groups/${sales.id}`, [{ op: 'add', value: { members: [{ value: bob }] } }]);
    expect(await roleOf(bob)).toBe('agency_user');
    const renamed = await scim.patch(`/Groups/${sales.id}`, [{ op: 'replace', value: { id: sales.id, displayName: 'Managers of sales' } }]);
    expect(renamed.status).toBe(200);
    expect(await roleOf(bob)).toBe('agency_user');
    await scim.patch(`/Groups/${sales.id}`, [{ op: 'Replace', path: 'displayName', value: 'manager' }]);
    expect([await roleOf(bob), await roleOf(support)]).toEqual(['agency_manager', 'agency_manager']);
    // Deleting the group: its members were in a role group and are now in none.
    expect((await scim.delete(`/Groups/${sales.id}`)).status).toBe(204);
    expect([await roleOf(bob), await roleOf(support)]).toEqual(['agency_user', 'agency_user']);
    expectScimError(await scim.get(`/Groups/${sales.id}`), 404);
  });

  it('refuses a group naming a role of another level, created or renamed (403), and changes nothing', async () => {
    for (const name of ['house_admin', 'tenant_user', 'Super Agency Manager']) {
      const refused = expectScimError(await scim.post('/Groups', groupBody(name)), 403);
      expect(refused.detail).toBe(m.scimRoleAbove);
    }
    const plain = await group('Plain');
    expectScimError(await scim.patch(`/Groups/${plain.id}`, [{ op: 'replace', path: 'displayName', value: 'house_manager' }]), 403);
    expectScimError(await scim.put(`/Groups/${plain.id}`, groupBody('super_agency_admin')), 403);
    expect(scimGroupSchema.parse((await scim.get(`/Groups/${plain.id}`)).body).displayName).toBe('Plain');
    const names = await db().selectFrom('scim_groups').select('display_name').where('organization_id', '=', w.id('A1')).execute();
    expect(names.map((n) => n.display_name)).not.toContain('house_admin');
  });

  it("refuses members who are not live people of the organization (another organization's, unknown, malformed)", async () => {
    const foreign = await idOf(w.world.users['T1.user']!);
    const before = await othersDigest();
    expectScimError(await scim.post('/Groups', groupBody('Admins', [foreign])), 400, 'invalidValue');
    const admins = await group('Admins');
    for (const value of [foreign, crypto.randomUUID(), 'not-an-id']) {
      expectScimError(await scim.patch(`/Groups/${admins.id}`, [{ op: 'add', path: 'members', value: [{ value }] }]), 400, 'invalidValue');
    }
    expectScimError(await scim.patch(`/Groups/${admins.id}`, [{ op: 'add', path: 'members', value: ['bare'] }]), 400, 'invalidValue');
    expect(await othersDigest()).toEqual(before);
    expect(await roleOf(foreign)).toBe('tenant_user');
  });

  it('never demotes the break-glass admin, nor the last active admin', async () => {
    const admin = await idOf(w.world.users['A1.admin']!);
    const leaders = await group('Leaders admin', []);
    // "Leaders admin" names no role: only "admin", "admins", "agency_admin" do.
    expect(scimGroupSchema.parse(leaders).displayName).toBe('Leaders admin');
    const admins = scimGroupSchema.parse(
      (await scim.get(`/Groups?filter=${encodeURIComponent('displayName eq "admins"')}`)).body.Resources[0],
    );
    await scim.patch(`/Groups/${admins.id}`, [{ op: 'add', path: 'members', value: [{ value: admin }] }]);
    await db()
      .insertInto('identity_providers')
      .values({
        organization_id: w.id('A1'),
        issuer: 'https://idp.test',
        client_id: 'c',
        client_secret_sealed: 'x',
        break_glass_user_id: admin,
      })
      .execute();
    try {
      const refused = expectScimError(await scim.patch(`/Groups/${admins.id}`, [{ op: 'remove', path: 'members' }]), 400, 'mutability');
      expect(refused.detail).toBe(m.scimBreakGlassRole);
      expect(await roleOf(admin)).toBe('agency_admin');
    } finally {
      await db().deleteFrom('identity_providers').where('organization_id', '=', w.id('A1')).execute();
    }

    const tenant = scimClient(w.t, (await makeScimToken(w, 'T1.admin', w.id('T1'), 'Tenant')).secret);
    const tenantAdmin = await idOf(w.world.users['T1.admin']!);
    const tenantAdmins = await tenant.post('/Groups', groupBody('Admins', [tenantAdmin]));
    expect(tenantAdmins.status).toBe(201);
    const last = expectScimError(await tenant.delete(`/Groups/${tenantAdmins.body.id}`), 400, 'mutability');
    expect(last.detail).toBe(MESSAGES.users.lastAdmin);
    expect(await roleOf(tenantAdmin)).toBe('tenant_admin');
  });
});

describe('reading groups', () => {
  it('filters by displayName (any case), externalId and member; leaves members out on request; 404 across organizations', async () => {
    const cy = await person('cy@a1.test');
    const readers = await scim.post('/Groups', groupBody('Readers', [cy], { externalId: 'okta-readers' }));
    const id = readers.body.id as string;
    const byName = pageSchema.parse((await scim.get(`/Groups?filter=${encodeURIComponent('displayName eq "READERS"')}`)).body);
    expect(byName.Resources.map((g) => g.id)).toEqual([id]);
    const byExternal = pageSchema.parse((await scim.get(`/Groups?filter=${encodeURIComponent('externalId eq "okta-readers"')}`)).body);
    expect(byExternal.totalResults).toBe(1);
    const byMember = pageSchema.parse(
      (await scim.get(`/Groups?filter=${encodeURIComponent(`id eq "${id}" and members[value eq "${cy}"]`)}&excludedAttributes=members`))
        .body,
    );
    expect(byMember.Resources).toHaveLength(1);
    expect(byMember.Resources[0]!.members).toBeUndefined();
    const single = await scim.get(`/Groups/${id}?excludedAttributes=members`);
    expect(scimGroupSchema.parse(single.body).members).toBeUndefined();
    expect(single.headers.get('etag')).toBe(single.body.meta.version);
    expectScimError(await scim.get(`/Groups?filter=${encodeURIComponent('displayName sw "R"')}`), 400, 'invalidFilter');

    const other = scimClient(w.t, (await makeScimToken(w, 'T1.admin', w.id('T1'), 'Other')).secret);
    expectScimError(await other.get(`/Groups/${id}`), 404);
    expectScimError(await other.patch(`/Groups/${id}`, [{ op: 'remove', path: 'members' }]), 404);
    expect(pageSchema.parse((await other.get('/Groups')).body).Resources.map((g) => g.id)).not.toContain(id);
  });

  it('versions every change; If-Match guards PUT, PATCH and DELETE; duplicate names are 409', async () => {
    const dee = await person('dee@a1.test');
    const team = await group('Team');
    const stale = team.meta.version;
    const put = await scim.put(`/Groups/${team.id}`, groupBody('Team', [dee]), { 'if-match': stale });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const fresh = scimGroupSchema.parse(put.body).meta.version;
    expect(fresh).not.toBe(stale);
    expectScimError(await scim.patch(`/Groups/${team.id}`, [{ op: 'remove', path: 'members' }], { 'if-match': stale }), 412);
    expectScimError(await scim.delete(`/Groups/${team.id}`, { 'if-match': stale }), 412);
    expectScimError(await scim.post('/Groups', groupBody('Team')), 409, 'uniqueness');
    expectScimError(await scim.patch(`/Groups/${team.id}`, [{ op: 'replace', path: 'displayName', value: 'Readers' }]), 409, 'uniqueness');
    // A person deleted by provisioning leaves their groups, which count a new version.
    expect((await scim.delete(`/Users/${dee}`)).status).toBe(204);
    const after = scimGroupSchema.parse((await scim.get(`/Groups/${team.id}`)).body);
    expect(after.members).toEqual([]);
    expect(after.meta.version).not.toBe(fresh);
    expect((await scim.delete(`/Groups/${team.id}`, { 'if-match': after.meta.version })).status).toBe(204);
  });
});

describe('the activity log', () => {
  it('says which token changed which group and the role it gives', async () => {
    const log = await w.t.request(
      'GET',
      `/api/activity?organization_id=${w.id('A1')}&include_subtree=false&action=scim.group_changed`,
      undefined,
      {
        token: await w.as('A1.admin'),
      },
    );
    expect(log.status).toBe(200);
    const sentences = (log.body.events as { sentence: string; actor: { kind: string } }[]).map((e) => e.sentence);
    expect(sentences).toContain('SCIM token Okta changed the group Managers (Agency Manager)');
    expect((log.body.events as { actor: { kind: string } }[]).every((e) => e.actor.kind === 'scim_token')).toBe(true);
  });
});
