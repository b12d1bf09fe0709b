import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { IDENTITY, MESSAGES, scimListResponseSchema, scimUserSchema, type ScimUser } from '@console/domain';
import { PASSWORD } from '../../test/fixtures.ts';
import { useWorld } from '../../test/harness.ts';
import { expectScimError, makeScimToken, scimClient, userBody, type ScimClient } from '../../test/scim-client.ts';

const w = useWorld();
const db = () => w.t.database.db;
const m = MESSAGES.identity;
const pageSchema = scimListResponseSchema(scimUserSchema);

let scim: ScimClient;
let token: { id: string; secret: string; prefix: string };

beforeAll(async () => {
  token = await makeScimToken(w, 'A1.admin', w.id('A1'), 'Okta');
  scim = scimClient(w.t, token.secret);
});

const userId = async (email: string) =>
  (await db().selectFrom('users').select('id').where(sql`lower(email)`, '=', email.toLowerCase()).executeTakeFirstOrThrow()).id;

async function created(email: string, extra: Record<string, unknown> = {}): Promise<ScimUser> {
  const answer = await scim.post('/Users', userBody(email, extra));
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return scimUserSchema.parse(answer.body);
}

const refresh = (cookie: string) => w.t.request('POST', '/api/auth/refresh', undefined, { cookie });

describe('POST /Users', () => {
  it('creates a person of the token organization at the default role, without a password, with meta, ETag and Location', async () => {
    const answer = await scim.post('/Users', userBody('ann@a1.test', { externalId: 'okta-ann' }));
    expect(answer.status).toBe(201);
    const user = scimUserSchema.parse(answer.body);
    expect(user).toMatchObject({
      userName: 'ann@a1.test',
      externalId: 'okta-ann',
      active: true,
      name: { givenName: 'Ann', familyName: 'Lee' },
      displayName: 'Ann Lee',
      emails: [{ value: 'ann@a1.test', primary: true }],
      groups: [],
    });
    expect(user.meta.location).toBe(`http://console.test/scim/v2/Users/${user.id}`);
    expect(answer.headers.get('etag')).toBe(user.meta.version);
    expect(answer.headers.get('location')).toBe(user.meta.location);
    const row = await db().selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      organization_id: w.id('A1'),
      role: 'agency_user',
      status: 'active',
      password_hash: null,
      scim_token_id: token.id,
    });
    const audit = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'scim.user_created')
      .where('target_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(audit.actor_user_id).toBeNull();
    expect(audit.organization_id).toBe(w.id('A1'));
    expect(audit.details).toMatchObject({
      email: 'ann@a1.test',
      role: 'agency_user',
      scim_token: { id: token.id, name: 'Okta', prefix: token.prefix },
    });
    expect(JSON.stringify(audit.details)).not.toContain(token.secret);
  });

  it('gives the just-in-time role when the organization set one, and active:false makes an inactive person', async () => {
    await db()
      .insertInto('identity_providers')
      .values({
        organization_id: w.id('A1'),
        issuer: 'https://idp.test',
        client_id: 'c',
        client_secret_sealed: 'x',
        jit_role: 'agency_support',
      })
      .execute();
    try {
      const user = await created('jit@a1.test', { active: false });
      expect(user.active).toBe(false);
      const row = await db().selectFrom('users').select(['role', 'status']).where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ role: 'agency_support', status: 'inactive' });
    } finally {
      await db().deleteFrom('identity_providers').where('organization_id', '=', w.id('A1')).execute();
    }
  });

  it('refuses a userName already in the organization (409 uniqueness) and an e-mail of another organization without naming it', async () => {
    await created('dup@a1.test');
    const again = expectScimError(await scim.post('/Users', userBody('DUP@a1.test')), 409, 'uniqueness');
    expect(again.detail).toBe(m.scimUserExists);
    const elsewhere = expectScimError(await scim.post('/Users', userBody(w.world.users['T1.user']!)), 409, 'uniqueness');
    expect(elsewhere.detail).toBe(m.scimEmailElsewhere);
    expect(elsewhere.detail).not.toContain('Tenant One');
    expect(
      await db().selectFrom('users').select('organization_id').where('email', '=', w.world.users['T1.user']!).executeTakeFirstOrThrow(),
    ).toEqual({
      organization_id: w.id('T1'),
    });
  });
});

describe('GET /Users', () => {
  it("reads a person of the organization; another organization's person, a deleted one or a bad id is 404", async () => {
    const ann = await created('get@a1.test');
    const read = await scim.get(`/Users/${ann.id}`);
    expect(read.status).toBe(200);
    expect(scimUserSchema.parse(read.body)).toEqual(ann);
    expect(read.headers.get('etag')).toBe(ann.meta.version);
    expectScimError(await scim.get(`/Users/${await userId(w.world.users['T1.user']!)}`), 404);
    expectScimError(await scim.get(`/Users/${await userId(w.world.users['SA1.admin']!)}`), 404);
    expectScimError(await scim.get('/Users/not-a-uuid'), 404);
  });

  it('filters by userName (any case), externalId and emails.value; only the organization people, never another one', async () => {
    await created('filter@a1.test', { externalId: 'ext-filter' });
    const byName = pageSchema.parse((await scim.get(`/Users?filter=${encodeURIComponent('userName eq "FILTER@a1.test"')}`)).body);
    expect(byName.totalResults).toBe(1);
    expect(byName.Resources[0]!.userName).toBe('filter@a1.test');
    const byExternal = pageSchema.parse((await scim.get(`/Users?filter=${encodeURIComponent('externalId eq "ext-filter"')}`)).body);
    expect(byExternal.Resources.map((u) => u.userName)).toEqual(['filter@a1.test']);
    const byEmail = pageSchema.parse(
      (await scim.get(`/Users?filter=${encodeURIComponent('emails.value eq "filter@a1.test" and active eq true')}`)).body,
    );
    expect(byEmail.totalResults).toBe(1);
    const foreign = pageSchema.parse(
      (await scim.get(`/Users?filter=${encodeURIComponent(`userName eq "${w.world.users['T1.user']}"`)}`)).body,
    );
    expect(foreign).toMatchObject({ totalResults: 0, Resources: [] });
    const everyone = pageSchema.parse((await scim.get('/Users?count=100')).body);
    expect(everyone.Resources.every((u) => !u.userName.endsWith('@t1.test') && !u.userName.endsWith('@sa1.test'))).toBe(true);
    expect(everyone.Resources.map((u) => u.userName)).toContain(w.world.users['A1.admin']);
  });

  it('refuses filters it does not support with 400 invalidFilter', async () => {
    for (const filter of [
      'userName co "a"',
      'userName eq "a" or userName eq "b"',
      'name.givenName eq "Ann"',
      'userName eq',
      '(userName eq "a")',
      'userName eq "a" and',
    ]) {
      expectScimError(await scim.get(`/Users?filter=${encodeURIComponent(filter)}`), 400, 'invalidFilter');
    }
  });

  it('pages with startIndex and count; count is capped at the maximum page', async () => {
    for (let i = 1; i <= 5; i++) await created(`page${i}@a1.test`, { externalId: 'paging' });
    const filter = `filter=${encodeURIComponent('externalId eq "paging"')}`;
    const page = pageSchema.parse((await scim.get(`/Users?${filter}&startIndex=2&count=2`)).body);
    expect(page).toMatchObject({ totalResults: 5, startIndex: 2, itemsPerPage: 2 });
    expect(page.Resources.map((u) => u.userName)).toEqual(['page2@a1.test', 'page3@a1.test']);
    const last = pageSchema.parse((await scim.get(`/Users?${filter}&startIndex=5&count=10`)).body);
    expect(last.Resources.map((u) => u.userName)).toEqual(['page5@a1.test']);
    const none = pageSchema.parse((await scim.get(`/Users?${filter}&count=0`)).body);
    expect(none).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });
    const below = pageSchema.parse((await scim.get(`/Users?${filter}&startIndex=0`)).body);
    expect(below.startIndex).toBe(1);
    for (let i = 0; i < IDENTITY.scimMaxPage; i++) {
      await db()
        .insertInto('users')
        .values({ email: `bulk${i}@a1.test`, role: 'agency_user', organization_id: w.id('A1') })
        .execute();
    }
    const capped = pageSchema.parse((await scim.get('/Users?count=1000')).body);
    expect(capped.itemsPerPage).toBe(IDENTITY.scimMaxPage);
    expect(capped.totalResults).toBeGreaterThan(IDENTITY.scimMaxPage);
    expectScimError(await scim.get('/Users?count=many'), 400, 'invalidValue');
  });
});

describe('PUT and PATCH /Users/:id', () => {
  it('PUT replaces what it names, keeps what it leaves out, honours If-Match and changes the ETag', async () => {
    const user = await created('put@a1.test', { externalId: 'put-1' });
    const stale = await scim.put(`/Users/${user.id}`, userBody('put@a1.test', { name: { givenName: 'X' } }), { 'if-match': 'W/"stale"' });
    expectScimError(stale, 412);
    const put = await scim.put(
      `/Users/${user.id}`,
      { userName: 'put2@a1.test', name: { givenName: 'Penny' } },
      { 'if-match': user.meta.version },
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const after = scimUserSchema.parse(put.body);
    expect(after).toMatchObject({ userName: 'put2@a1.test', name: { givenName: 'Penny' }, externalId: 'put-1', active: true });
    expect(after.name.familyName).toBeUndefined();
    expect(after.meta.version).not.toBe(user.meta.version);
    expect(put.headers.get('etag')).toBe(after.meta.version);
    const audit = await db()
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'scim.user_updated')
      .where('target_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ changes: { userName: { before: 'put@a1.test', after: 'put2@a1.test' } } });
    expectScimError(await scim.put(`/Users/${user.id}`, userBody(w.world.users['T1.admin']!)), 409, 'uniqueness');
    expectScimError(await scim.put(`/Users/${await userId(w.world.users['T1.user']!)}`, userBody('steal@a1.test')), 404);
  });

  it('PATCH takes Okta and Entra shapes: with and without path, any case, booleans as text', async () => {
    const user = await created('patch@a1.test');
    const url = `/Users/${user.id}`;
    const okta = await scim.patch(url, [{ op: 'replace', value: { active: false, 'name.familyName': 'Okta' } }]);
    expect(okta.status, JSON.stringify(okta.body)).toBe(200);
    expect(scimUserSchema.parse(okta.body)).toMatchObject({ active: false, name: { familyName: 'Okta' } });
    const entra = await scim.patch(url, [
      { op: 'Replace', path: 'active', value: 'True' },
      { op: 'Add', path: 'name.givenName', value: 'Entra' },
      { op: 'Replace', path: 'externalId', value: 'entra-1' },
      { op: 'Replace', path: 'emails[type eq "work"].value', value: 'patch@a1.test' },
      { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Sales' },
      { op: 'Replace', path: 'urn:ietf:params:scim:schemas:core:2.0:User:userName', value: 'patched@a1.test' },
    ]);
    expect(entra.status, JSON.stringify(entra.body)).toBe(200);
    expect(scimUserSchema.parse(entra.body)).toMatchObject({
      active: true,
      userName: 'patched@a1.test',
      externalId: 'entra-1',
      name: { givenName: 'Entra', familyName: 'Okta' },
    });
    const removed = await scim.patch(url, [
      { op: 'remove', path: 'externalId' },
      { op: 'remove', path: 'name.givenName' },
    ]);
    expect(scimUserSchema.parse(removed.body).externalId).toBeUndefined();
    expect(scimUserSchema.parse(removed.body).name.givenName).toBeUndefined();

    expectScimError(await scim.patch(url, [{ op: 'remove' }]), 400, 'noTarget');
    expectScimError(await scim.patch(url, [{ op: 'replace', path: 'id', value: crypto.randomUUID() }]), 400, 'mutability');
    expectScimError(await scim.patch(url, [{ op: 'add', path: 'groups', value: [] }]), 400, 'mutability');
    expectScimError(await scim.patch(url, [{ op: 'replace', path: 'active', value: 'maybe' }]), 400, 'invalidValue');
    expectScimError(await scim.patch(url, [{ op: 'replace', path: 'userName', value: 'nope' }]), 400, 'invalidValue');
    expectScimError(await scim.patch(url, [{ op: 'remove', path: 'userName' }]), 400, 'invalidValue');
    expectScimError(await scim.patch(url, [{ op: 'replace', path: 'name[', value: 'x' }]), 400, 'invalidPath');
    expectScimError(await scim.patch(url, [{ op: 'move', path: 'active', value: true }]), 400, 'invalidSyntax');
    expectScimError(await scim.call('PATCH', url, { Operations: [] }), 400, 'invalidSyntax');
    expectScimError(await scim.patch(url, [{ op: 'replace', path: 'active', value: false }], { 'if-match': 'W/"old"' }), 412);
    expect(scimUserSchema.parse((await scim.get(url)).body).active).toBe(true);
  });

  it('deactivation ends every session of the person at once: their refresh and their access token stop', async () => {
    const email = w.world.users['A1.user']!;
    const session = await w.t.signIn(email, PASSWORD);
    const other = await w.t.signIn(email, PASSWORD);
    const id = await userId(email);
    const patched = await scim.patch(`/Users/${id}`, [{ op: 'Replace', path: 'active', value: 'False' }]);
    expect(patched.status).toBe(200);
    expect((await refresh(session.cookie)).status).toBe(401);
    expect((await refresh(other.cookie)).status).toBe(401);
    expect((await w.t.request('GET', '/api/account/factors', undefined, { token: session.token })).status).toBe(401);
    const live = await db().selectFrom('refresh_sessions').select('id').where('user_id', '=', id).where('revoked_at', 'is', null).execute();
    expect(live).toHaveLength(0);
    const audit = await db()
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'scim.user_deactivated')
      .where('target_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ sessions_ended: 2, changes: { active: { before: true, after: false } } });
    expect((await w.t.request('POST', '/api/auth/sign-in', { email, password: PASSWORD })).status).toBe(401);
    await scim.patch(`/Users/${id}`, [{ op: 'replace', value: { active: true } }]);
    expect((await w.t.request('POST', '/api/auth/sign-in', { email, password: PASSWORD })).status).toBe(200);
  });

  it('never deactivates or deletes the break-glass admin, nor the last active admin', async () => {
    const admin = await userId(w.world.users['A1.admin']!);
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
      const refused = expectScimError(
        await scim.patch(`/Users/${admin}`, [{ op: 'replace', path: 'active', value: false }]),
        400,
        'mutability',
      );
      expect(refused.detail).toBe(m.scimBreakGlass);
      expectScimError(await scim.delete(`/Users/${admin}`), 400, 'mutability');
      expect(await db().selectFrom('users').select(['status', 'deleted_at']).where('id', '=', admin).executeTakeFirstOrThrow()).toEqual({
        status: 'active',
        deleted_at: null,
      });
    } finally {
      await db().deleteFrom('identity_providers').where('organization_id', '=', w.id('A1')).execute();
    }
    const tenant = scimClient(w.t, (await makeScimToken(w, 'T1.admin', w.id('T1'), 'Tenant')).secret);
    const last = expectScimError(
      await tenant.patch(`/Users/${await userId(w.world.users['T1.admin']!)}`, [{ op: 'replace', value: { active: false } }]),
      400,
      'mutability',
    );
    expect(last.detail).toBe(MESSAGES.users.lastAdmin);
  });
});

describe('DELETE /Users/:id', () => {
  it('deletes the person (204), ends their sessions, hides them; provisioning them again brings them back', async () => {
    const user = await created('gone@a1.test');
    await db()
      .insertInto('refresh_sessions')
      .values({ user_id: user.id, expires_at: new Date(Date.now() + 3_600_000).toISOString() })
      .execute();
    expectScimError(await scim.delete(`/Users/${user.id}`, { 'if-match': 'W/"old"' }), 412);
    const deleted = await scim.delete(`/Users/${user.id}`);
    expect(deleted.status).toBe(204);
    expectScimError(await scim.get(`/Users/${user.id}`), 404);
    expectScimError(await scim.delete(`/Users/${user.id}`), 404);
    const row = await db().selectFrom('users').select(['deleted_at']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    const live = await db()
      .selectFrom('refresh_sessions')
      .select('id')
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toHaveLength(0);
    const again = await created('gone@a1.test');
    expect(again.id).toBe(user.id);
    expectScimError(await scim.delete(`/Users/${await userId(w.world.users['T1.user']!)}`), 404);
  });
});

describe('the activity log', () => {
  it('names the token as the actor of provisioning', async () => {
    const user = await created('logged@a1.test');
    const log = await w.t.request(
      'GET',
      `/api/activity?organization_id=${w.id('A1')}&include_subtree=false&action=scim.user_created`,
      undefined,
      {
        token: await w.as('A1.admin'),
      },
    );
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    const event = (log.body.events as { target_id: string; actor: unknown; sentence: string }[]).find((e) => e.target_id === user.id)!;
    expect(event.actor).toEqual({ kind: 'scim_token', id: token.id, name: 'Okta', email: null });
    expect(event.sentence).toBe('SCIM token Okta provisioned Ann Lee in Agency One');
  });
});
