/**
 * Invitations and existing accounts, through real HTTP on a real database:
 * - inviting answers the same whether or not the e-mail has an account elsewhere;
 * - an existing account joins only after it is told what it leaves and what it joins,
 *   and confirms;
 * - once an account exists for an e-mail, its other pending invitations are superseded,
 *   and their links say so;
 * - an invitation into a deleted organization is never usable.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { useWorld, type ApiResponse } from '../test/harness.ts';
import { PASSWORD, insertOrg, insertUser, tablesDigest } from '../test/fixtures.ts';
import { hashToken } from '../lib/secrets.ts';

const w = useWorld();
const db = () => w.t.database.db;
const m = MESSAGES.invitations;

const person = (email: string, role: string, organization_id?: string) => ({
  email,
  first_name: 'Ada',
  last_name: 'Account',
  role,
  organization_id,
});
const invite = async (who: string, body: Record<string, unknown>) =>
  w.t.request('POST', '/api/invitations', body, { token: await w.as(who) });
const accept = (token: string, options: { bearer?: string; confirm?: boolean } = {}) =>
  w.t.request('POST', '/api/invitations/accept', options.confirm === undefined ? { token } : { token, confirm: options.confirm }, {
    token: options.bearer,
  });
const register = (token: string) => w.t.request('POST', '/api/invitations/register', { token, password: 'a-good-password' });

/** The token of the newest mail to an address about an organization, read from the outbox as the person would. */
async function mailedToken(email: string, organizationName: string): Promise<string> {
  const row = await db()
    .selectFrom('outbox')
    .select('link')
    .where('to_address', '=', email)
    .where('subject', 'like', `%${organizationName}`)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return new URL(row.link!).searchParams.get('token')!;
}

const peopleDigest = () => tablesDigest(db(), ['users', 'invitations', 'refresh_sessions']);

function expectError(response: ApiResponse, status: number, code: string, message: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toEqual({ error: { code, message } });
}

/** An invitation's answer without what differs by e-mail or by the moment. */
function comparable(response: ApiResponse) {
  const { id, email, created_at, expires_at, ...rest } = response.body.invitation;
  return {
    status: response.status,
    keys: Object.keys(response.body).sort(),
    invitationKeys: Object.keys(response.body.invitation).sort(),
    rest,
    shapes: [typeof id, typeof email, typeof created_at, typeof expires_at],
    validity: Math.round((Date.parse(expires_at) - Date.parse(created_at)) / 60_000),
  };
}

describe('inviting an e-mail that has an account', () => {
  it('answers as for a new e-mail when the account is in another tree, for admins and managers alike', async () => {
    await insertUser(db(), { email: 'known@sa3.test', password: PASSWORD, role: 'super_agency_user', organizationId: w.id('SA3') });
    await insertUser(db(), { email: 'known-2@sa3.test', password: PASSWORD, role: 'super_agency_manager', organizationId: w.id('SA3') });
    for (const [who, known, fresh] of [
      ['A1.admin', 'known@sa3.test', 'fresh-1@nowhere.test'],
      ['A1.manager', 'known-2@sa3.test', 'fresh-2@nowhere.test'],
    ] as const) {
      const withAccount = await invite(who, person(known, 'agency_user'));
      const without = await invite(who, person(fresh, 'agency_user'));
      expect(withAccount.status).toBe(201);
      expect(comparable(withAccount)).toEqual(comparable(without));
      expect(withAccount.headers.get('content-type')).toBe(without.headers.get('content-type'));
      // Both are stored pending and mailed alike.
      for (const email of [known, fresh]) {
        const row = await db().selectFrom('invitations').select('status').where('email', '=', email).executeTakeFirstOrThrow();
        expect(row.status).toBe('pending');
        expect(await mailedToken(email, 'Agency One')).toBeTruthy();
      }
      // A second invitation into the same organization is refused the same way for both.
      const again = [await invite(who, person(known, 'agency_user')), await invite(who, person(fresh, 'agency_user'))];
      for (const response of again) expectError(response, 409, 'conflict', m.alreadyPending);
    }
  });

  it('answers as for a new e-mail when the account is in another organization of the same tree', async () => {
    const withAccount = await invite('A1.admin', person('user@t1.test', 'tenant_user', w.id('T2')));
    const without = await invite('A1.admin', person('fresh-3@nowhere.test', 'tenant_user', w.id('T2')));
    expect(comparable(withAccount)).toEqual(comparable(without));
  });

  it('refuses a member of the very organization invited into, which is within the inviter reach', async () => {
    const before = await peopleDigest();
    expectError(await invite('A1.manager', person('User@A1.test', 'agency_user')), 409, 'conflict', m.alreadyMember);
    expect(await peopleDigest()).toBe(before);
  });
});

describe('an existing account joins only after confirming', () => {
  it('the first answer says what is left and what is joined and changes nothing; confirm moves', async () => {
    await insertUser(db(), { email: 'mover@a2.test', password: PASSWORD, role: 'agency_manager', organizationId: w.id('A2') });
    expect((await invite('A1.admin', person('mover@a2.test', 'tenant_user', w.id('T1')))).status).toBe(201);
    const token = await mailedToken('mover@a2.test', 'Tenant One');
    const bearer = (await w.t.signIn('mover@a2.test', PASSWORD)).token;
    const stranger = await w.as('T1.user');

    const before = await peopleDigest();
    const asked = await accept(token, { bearer });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({
      result: 'requires_confirmation',
      requiresConfirmation: true,
      email: 'mover@a2.test',
      invitationId: expect.any(String),
      from: { organizationId: w.id('A2'), organizationName: 'Agency Two', role: 'agency_manager' },
      to: { organizationId: w.id('T1'), organizationName: 'Tenant One', role: 'tenant_user' },
    });
    // An explicit false is no consent either.
    expect((await accept(token, { bearer, confirm: false })).body.result).toBe('requires_confirmation');
    expect(await peopleDigest()).toBe(before);

    // Confirming without a session, or as another person, moves nobody.
    expect((await accept(token, { confirm: true })).body).toEqual({
      result: 'requires_login',
      requiresLogin: true,
      email: 'mover@a2.test',
    });
    expectError(await accept(token, { bearer: stranger, confirm: true }), 403, 'forbidden', m.otherAccount);
    expect(await peopleDigest()).toBe(before);

    const joined = await accept(token, { bearer, confirm: true });
    expect(joined.body).toEqual({ result: 'accepted', organizationId: w.id('T1'), organizationName: 'Tenant One', role: 'tenant_user' });
    const account = await db()
      .selectFrom('users')
      .select(['organization_id', 'role'])
      .where('email', '=', 'mover@a2.test')
      .executeTakeFirstOrThrow();
    expect(account).toEqual({ organization_id: w.id('T1'), role: 'tenant_user' });
    const audit = await db()
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'invitation.accept')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ from_organization_id: w.id('A2'), from_role: 'agency_manager', role: 'tenant_user' });
    expectError(await accept(token, { bearer, confirm: true }), 410, 'invitation_used', m.used);
  });

  it('the last admin of an organization cannot leave it by confirming, and nothing changes', async () => {
    const lone = await insertOrg(db(), { name: 'Lonely Tenant', type: 'tenant', parentId: w.id('A1') });
    await insertUser(db(), { email: 'lone@lonely.test', password: PASSWORD, role: 'tenant_admin', organizationId: lone.id });
    expect((await invite('A1.admin', person('lone@lonely.test', 'tenant_user', w.id('T2')))).status).toBe(201);
    const token = await mailedToken('lone@lonely.test', 'Tenant Two');
    const bearer = (await w.t.signIn('lone@lonely.test', PASSWORD)).token;
    expect((await accept(token, { bearer })).body.result).toBe('requires_confirmation');
    const before = await peopleDigest();
    expectError(await accept(token, { bearer, confirm: true }), 422, 'rule_violated', MESSAGES.users.lastAdmin);
    expect(await peopleDigest()).toBe(before);
  });

  it('a person of a suspended organization, or of one below a suspended one, cannot leave it by accepting', async () => {
    const frozen = await insertOrg(db(), { name: 'Frozen Agency', type: 'agency', parentId: w.id('SA2') });
    const below = await insertOrg(db(), { name: 'Below Frozen', type: 'tenant', parentId: frozen.id });
    await insertUser(db(), { email: 'stuck@frozen.test', password: PASSWORD, role: 'agency_user', organizationId: frozen.id });
    await insertUser(db(), { email: 'stuck@below.test', password: PASSWORD, role: 'tenant_user', organizationId: below.id });
    for (const email of ['stuck@frozen.test', 'stuck@below.test']) {
      expect((await invite('A1.admin', person(email, 'tenant_user', w.id('T2')))).status).toBe(201);
    }
    const tokens = {
      own: await mailedToken('stuck@frozen.test', 'Tenant Two'),
      ancestor: await mailedToken('stuck@below.test', 'Tenant Two'),
    };
    const bearers = {
      own: (await w.t.signIn('stuck@frozen.test', PASSWORD)).token,
      ancestor: (await w.t.signIn('stuck@below.test', PASSWORD)).token,
    };
    await db().updateTable('organizations').set({ status: 'suspended' }).where('id', '=', frozen.id).execute();
    const before = await peopleDigest();
    for (const where of ['own', 'ancestor'] as const) {
      for (const confirm of [false, true]) {
        expectError(
          await accept(tokens[where], { bearer: bearers[where], confirm }),
          403,
          'organization_suspended',
          MESSAGES.organizations.frozen('suspended', where),
        );
      }
    }
    expect(await peopleDigest()).toBe(before);
    // Active again, the same link works.
    await db().updateTable('organizations').set({ status: 'active' }).where('id', '=', frozen.id).execute();
    expect((await accept(tokens.own, { bearer: bearers.own, confirm: true })).body.result).toBe('accepted');
  });

  it('an invitation into the account own organization is refused rather than changing the role', async () => {
    // Made before the rule that refuses it at creation: written as such a row would be.
    const token = 'invitation-into-own-organization';
    await db()
      .insertInto('invitations')
      .values({
        token_hash: hashToken(token),
        email: 'user@a1.test',
        first_name: 'Ada',
        last_name: 'Account',
        role: 'agency_admin',
        organization_id: w.id('A1'),
        expires_at: new Date(Date.now() + 86_400_000),
      })
      .execute();
    const bearer = await w.as('A1.user');
    const before = await peopleDigest();
    for (const confirm of [false, true]) expectError(await accept(token, { bearer, confirm }), 409, 'conflict', m.alreadyInOrganization);
    expect(await peopleDigest()).toBe(before);
  });
});

describe('once an account exists for an e-mail, its other pending invitations are superseded', () => {
  it('by registration: the other links say so, registering with them creates nothing', async () => {
    const email = 'many@offers.test';
    expect((await invite('A1.admin', person(email, 'agency_user'))).status).toBe(201);
    expect((await invite('A1.admin', person(email, 'tenant_user', w.id('T1')))).status).toBe(201);
    expect((await invite('SA1.admin', person(email, 'agency_user', w.id('A2')))).status).toBe(201);
    const a1 = await mailedToken(email, 'Agency One');
    const t1 = await mailedToken(email, 'Tenant One');
    const a2 = await mailedToken(email, 'Agency Two');

    const registered = await register(a1);
    expect(registered.status).toBe(200);
    const winner = await db().selectFrom('invitations').select('id').where('token_hash', '=', hashToken(a1)).executeTakeFirstOrThrow();
    const others = await db()
      .selectFrom('invitations')
      .select(['status', 'superseded_by', 'revoked_at'])
      .where('token_hash', 'in', [hashToken(t1), hashToken(a2)])
      .execute();
    expect(others).toEqual([
      { status: 'revoked', superseded_by: winner.id, revoked_at: expect.any(String) },
      { status: 'revoked', superseded_by: winner.id, revoked_at: expect.any(String) },
    ]);

    const before = await peopleDigest();
    for (const token of [t1, a2]) {
      expectError(await accept(token), 409, 'invitation_superseded', m.superseded);
      expectError(await accept(token, { bearer: registered.body.access_token, confirm: true }), 409, 'invitation_superseded', m.superseded);
      expectError(await register(token), 409, 'invitation_superseded', m.superseded);
    }
    expect(await peopleDigest()).toBe(before);
    // The inviting organization's list shows it no longer pending.
    const list = await w.t.request('GET', `/api/invitations?organization_id=${w.id('T1')}&status=pending`, undefined, {
      token: await w.as('A1.admin'),
    });
    expect(list.body.invitations.map((i: { email: string }) => i.email)).not.toContain(email);
  });

  it('by accepting: joining one organization supersedes the other offers', async () => {
    const email = 'chooser@offers.test';
    await insertUser(db(), { email, password: PASSWORD, role: 'super_agency_user', organizationId: w.id('SA3') });
    expect((await invite('A1.admin', person(email, 'tenant_user', w.id('T1')))).status).toBe(201);
    expect((await invite('A1.admin', person(email, 'tenant_user', w.id('T2')))).status).toBe(201);
    const t1 = await mailedToken(email, 'Tenant One');
    const t2 = await mailedToken(email, 'Tenant Two');
    const bearer = (await w.t.signIn(email, PASSWORD)).token;
    expect((await accept(t1, { bearer, confirm: true })).body.result).toBe('accepted');
    expectError(await accept(t2, { bearer, confirm: true }), 409, 'invitation_superseded', m.superseded);
    const account = await db().selectFrom('users').select('organization_id').where('email', '=', email).executeTakeFirstOrThrow();
    expect(account.organization_id).toBe(w.id('T1'));
  });

  it('an invitation made after the account exists stays open, and registering with it is refused: the account signs in', async () => {
    const email = 'later@offers.test';
    await insertUser(db(), { email, password: PASSWORD, role: 'super_agency_user', organizationId: w.id('SA3') });
    expect((await invite('A1.admin', person(email, 'agency_user'))).status).toBe(201);
    const token = await mailedToken(email, 'Agency One');
    const before = await peopleDigest();
    expectError(await register(token), 409, 'conflict', m.accountExists);
    expect(await peopleDigest()).toBe(before);
    expect((await accept(token)).body.result).toBe('requires_login');
  });
});

describe('an invitation into a deleted organization is never usable', () => {
  it('acceptance, confirmation and registration refuse it with a clear message and change nothing', async () => {
    const doomed = await insertOrg(db(), { name: 'Doomed Tenant', type: 'tenant', parentId: w.id('A1') });
    await insertUser(db(), { email: 'existing@doomed.test', password: PASSWORD, role: 'super_agency_user', organizationId: w.id('SA3') });
    expect((await invite('A1.admin', person('new@doomed.test', 'tenant_user', doomed.id))).status).toBe(201);
    expect((await invite('A1.admin', person('existing@doomed.test', 'tenant_user', doomed.id))).status).toBe(201);
    const fresh = await mailedToken('new@doomed.test', 'Doomed Tenant');
    const existing = await mailedToken('existing@doomed.test', 'Doomed Tenant');
    const bearer = (await w.t.signIn('existing@doomed.test', PASSWORD)).token;

    // Deleted through the API, with both invitations still pending.
    expect((await w.t.request('DELETE', `/api/organizations/${doomed.id}`, undefined, { token: await w.as('A1.admin') })).status).toBe(204);
    const before = await peopleDigest();
    const gone = (response: ApiResponse) => expectError(response, 410, 'invitation_organization_deleted', m.organizationDeleted);
    gone(await accept(fresh));
    gone(await register(fresh));
    gone(await accept(existing));
    gone(await accept(existing, { bearer }));
    gone(await accept(existing, { bearer, confirm: true }));
    expect(await peopleDigest()).toBe(before);
    const users = await db().selectFrom('users').select('id').where(sql`lower(email)`, 'in', ['new@doomed.test']).execute();
    expect(users).toHaveLength(0);

    // The same once a deletion revokes its pending invitations.
    await db()
      .updateTable('invitations')
      .set({ status: 'revoked', revoked_at: new Date() })
      .where('organization_id', '=', doomed.id)
      .execute();
    gone(await accept(fresh));
    gone(await register(fresh));
    gone(await accept(existing, { bearer, confirm: true }));

    // And no new invitation is made into it.
    expect((await invite('A1.admin', person('late@doomed.test', 'tenant_user', doomed.id))).status).toBe(404);
  });
});
