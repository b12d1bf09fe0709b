import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';
import { hashToken } from '../../lib/secrets.ts';

const w = useWorld();
const as = (who: string) => w.as(who);

/** The token of the newest mail to this address, read from the outbox like a person would. */
async function mailedToken(email: string): Promise<string> {
  const rows = await w.t.database.db
    .selectFrom('outbox')
    .select(['link'])
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .limit(1)
    .execute();
  const link = rows[0]?.link;
  expect(link, `mail to ${email}`).toBeTruthy();
  expect(link).toMatch(/^http:\/\/console\.test\/invitation\?token=/);
  return new URL(link!).searchParams.get('token')!;
}

const invite = async (who: string, body: Record<string, unknown>) =>
  w.t.request('POST', '/api/invitations', body, { token: await as(who) });
const person = (email: string, role: string, organization_id?: string) => ({
  email,
  first_name: 'Nora',
  last_name: 'Newcomer',
  role,
  organization_id,
});

async function invitationCount() {
  return (await w.t.database.db.selectFrom('invitations').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n;
}

describe('inviting', () => {
  it('invites into the own organization, mails a link and stores only the token hash', async () => {
    const response = await invite('A1.admin', person('nora@new.test', 'agency_user'));
    expect(response.status).toBe(201);
    expect(response.body.invitation).toMatchObject({
      email: 'nora@new.test',
      role: 'agency_user',
      status: 'pending',
      organization_id: w.world.orgs.A1.id,
      organization_name: 'Agency One',
    });
    const expires = new Date(response.body.invitation.expires_at).getTime() - new Date(response.body.invitation.created_at).getTime();
    expect(Math.round(expires / 86_400_000)).toBe(7);
    const token = await mailedToken('nora@new.test');
    const row = await w.t.database.db
      .selectFrom('invitations')
      .selectAll()
      .where('id', '=', response.body.invitation.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(response.body)).not.toContain(token);
  });

  it('invites into a direct child unless it disables parent invites', async () => {
    expect((await invite('A1.admin', person('child@new.test', 'tenant_admin', w.world.orgs.T1.id))).status).toBe(201);
    await w.t.database.db.updateTable('organizations').set({ disable_parent_invites: true }).where('id', '=', w.world.orgs.T2.id).execute();
    const refused = await invite('A1.admin', person('blocked@new.test', 'tenant_user', w.world.orgs.T2.id));
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(MESSAGES.invitations.parentInvitesDisabled);
    // The tenant's own admin still invites into it.
    expect((await invite('T1.admin', person('own@new.test', 'tenant_user'))).status).toBe(201);
  });

  it('refuses with clear messages and writes nothing', async () => {
    await insertUser(w.t.database.db, {
      email: 'taken@new.test',
      password: PASSWORD,
      role: 'agency_user',
      organizationId: w.world.orgs.A1.id,
    });
    await invite('A1.admin', person('twice@new.test', 'agency_user'));
    const before = await invitationCount();
    const cases: [string, Record<string, unknown>, number, string | null][] = [
      // A member of the very organization invited into (within the inviter's reach).
      ['A1.admin', person('TAKEN@new.test', 'agency_user'), 409, MESSAGES.invitations.alreadyMember],
      ['A1.admin', person('twice@new.test', 'agency_manager'), 409, MESSAGES.invitations.alreadyPending],
      ['A1.admin', person('x@new.test', 'tenant_user'), 422, MESSAGES.users.roleNotForOrgType('tenant_user', 'agency')],
      ['A1.manager', person('x@new.test', 'agency_admin'), 403, MESSAGES.users.roleAboveOwn],
      ['A1.user', person('x@new.test', 'agency_user'), 403, null],
      ['A1.support', person('x@new.test', 'agency_user'), 403, null],
      ['SA1.admin', person('x@new.test', 'tenant_user', w.world.orgs.T1.id), 403, MESSAGES.users.onlyOwnOrDirectChild],
      ['A1.admin', person('x@new.test', 'super_agency_user', w.world.orgs.SA1.id), 404, null],
      ['A1.admin', person('x@new.test', 'super_agency_user', w.world.orgs.SA3.id), 404, null],
      ['A1.admin', { ...person('not-an-email', 'agency_user') }, 400, MESSAGES.users.invalidEmail],
      ['A1.admin', { ...person('x@new.test', 'agency_user'), first_name: 'N' }, 400, MESSAGES.users.firstNameMin],
      ['A1.admin', { ...person('x@new.test', 'agency_user'), last_name: '' }, 400, MESSAGES.users.lastNameMin],
      ['A1.admin', { ...person('x@new.test', ''), role: '' }, 400, MESSAGES.users.selectRole],
    ];
    for (const [who, body, status, message] of cases) {
      const response = await invite(who, body);
      expect(response.status, `${who} ${JSON.stringify(body)}`).toBe(status);
      if (message) expect(response.body.error.message).toBe(message);
    }
    expect(await invitationCount()).toBe(before);
  });

  it('lists invitations of an organization in scope with their expiry', async () => {
    const response = await w.t.request('GET', `/api/invitations?organization_id=${w.world.orgs.A1.id}&status=pending`, undefined, {
      token: await as('A1.manager'),
    });
    expect(response.status).toBe(200);
    expect(response.body.invitations.length).toBeGreaterThan(0);
    expect(response.body.invitations.every((i: any) => i.status === 'pending' && i.expires_at)).toBe(true);
    expect(
      (await w.t.request('GET', `/api/invitations?organization_id=${w.world.orgs.SA1.id}`, undefined, { token: await as('A1.admin') }))
        .status,
    ).toBe(404);
    expect((await w.t.request('GET', '/api/invitations', undefined, { token: await as('A1.user') })).status).toBe(403);
  });

  it('lists who invited (name, or e-mail without one) and when the invitation was sent', async () => {
    const before = Date.now();
    const created = await invite('A1.admin', person('who@new.test', 'agency_user'));
    expect(created.body.invitation.invited_by_name).toBe('Test User');
    const listed = async () => {
      const response = await w.t.request('GET', `/api/invitations?organization_id=${w.world.orgs.A1.id}&status=pending`, undefined, {
        token: await as('A1.manager'),
      });
      expect(response.status).toBe(200);
      return response.body.invitations.find((i: any) => i.email === 'who@new.test');
    };
    const inviter = await w.t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', w.world.users['A1.admin']!)
      .executeTakeFirstOrThrow();
    const first = await listed();
    expect(first).toMatchObject({ invited_by: inviter.id, invited_by_name: 'Test User' });
    expect(new Date(first.created_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(first.created_at).getTime()).toBeLessThanOrEqual(Date.now() + 1000);

    await w.t.database.db.updateTable('users').set({ first_name: null, last_name: null }).where('id', '=', inviter.id).execute();
    expect((await listed()).invited_by_name).toBe(w.world.users['A1.admin']);
    // An invitation whose inviter is not recorded names nobody.
    await w.t.database.db.updateTable('invitations').set({ invited_by: null }).where('email', '=', 'who@new.test').execute();
    expect(await listed()).toMatchObject({ invited_by: null, invited_by_name: null });
  });
});

describe('accepting', () => {
  it('takes a new e-mail through registration, signs it in, and uses the token once', async () => {
    await invite('A1.admin', person('reg@new.test', 'agency_manager'));
    const token = await mailedToken('reg@new.test');
    const read = await w.t.request('POST', '/api/invitations/accept', { token });
    expect(read.body).toMatchObject({
      result: 'requires_registration',
      email: 'reg@new.test',
      organizationId: w.world.orgs.A1.id,
      role: 'agency_manager',
    });

    const short = await w.t.request('POST', '/api/invitations/register', { token, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.error.fields.password).toBe(MESSAGES.auth.passwordTooShort);

    const registered = await w.t.request('POST', '/api/invitations/register', { token, password: 'a-good-password' });
    expect(registered.status).toBe(200);
    expect(registered.body.user).toMatchObject({
      email: 'reg@new.test',
      role: 'agency_manager',
      organization_id: w.world.orgs.A1.id,
      first_name: 'Nora',
      status: 'active',
    });
    expect(registered.refreshCookie).toBeTruthy();
    expect(registered.body.user.invited_at).not.toBeNull();
    const me = await w.t.request('GET', '/api/users/me', undefined, { token: registered.body.access_token });
    expect(me.body.organization.name).toBe('Agency One');

    const again = await w.t.request('POST', '/api/invitations/register', { token, password: 'another-password' });
    expect(again.status).toBe(410);
    expect(again.body.error).toMatchObject({ code: 'invitation_used', message: MESSAGES.invitations.used });
    const row = await w.t.database.db
      .selectFrom('invitations')
      .select(['status', 'accepted_user_id'])
      .where('email', '=', 'reg@new.test')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'accepted', accepted_user_id: registered.body.user.id });
  });

  it('refuses an expired, revoked or unknown token with its reason', async () => {
    await invite('A1.admin', person('late@new.test', 'agency_user'));
    const late = await mailedToken('late@new.test');
    await w.t.database.db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('email', '=', 'late@new.test')
      .execute();
    const expired = await w.t.request('POST', '/api/invitations/accept', { token: late });
    expect(expired.status).toBe(410);
    expect(expired.body.error).toMatchObject({ code: 'invitation_expired', message: MESSAGES.invitations.expired });
    expect((await w.t.request('POST', '/api/invitations/register', { token: late, password: 'a-good-password' })).status).toBe(410);

    const created = await invite('A1.admin', person('gone@new.test', 'agency_user'));
    const gone = await mailedToken('gone@new.test');
    const revoked = await w.t.request('DELETE', `/api/invitations/${created.body.invitation.id}`, undefined, {
      token: await as('A1.admin'),
    });
    expect(revoked.body.invitation.status).toBe('revoked');
    const afterRevoke = await w.t.request('POST', '/api/invitations/register', { token: gone, password: 'a-good-password' });
    expect(afterRevoke.status).toBe(410);
    expect(afterRevoke.body.error.code).toBe('invitation_revoked');

    const unknown = await w.t.request('POST', '/api/invitations/accept', { token: 'made-up' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(MESSAGES.invitations.invalidLink);
    const users = await w.t.database.db.selectFrom('users').select('id').where('email', 'in', ['late@new.test', 'gone@new.test']).execute();
    expect(users).toHaveLength(0);
  });

  it('asks an existing account to sign in and confirm, then moves it with the invitation role', async () => {
    await invite('A1.admin', person('mover@new.test', 'agency_user'));
    const first = await mailedToken('mover@new.test');
    await w.t.request('POST', '/api/invitations/register', { token: first, password: 'a-good-password' });
    // Later the same person is invited into the tenant below: an account is invited like anyone.
    await invite('T1.admin', person('mover@new.test', 'tenant_manager')).then((r) => expect(r.status).toBe(201));
    const pendingToken = await mailedToken('mover@new.test');
    const anonymous = await w.t.request('POST', '/api/invitations/accept', { token: pendingToken });
    expect(anonymous.body).toEqual({ result: 'requires_login', requiresLogin: true, email: 'mover@new.test' });
    const stranger = await w.t.request(
      'POST',
      '/api/invitations/accept',
      { token: pendingToken, confirm: true },
      { token: await as('A1.user') },
    );
    expect(stranger.status).toBe(403);
    expect(stranger.body.error.message).toBe(MESSAGES.invitations.otherAccount);
    const { token } = await w.t.signIn('mover@new.test', 'a-good-password');
    const asked = await w.t.request('POST', '/api/invitations/accept', { token: pendingToken }, { token });
    expect(asked.body).toMatchObject({
      result: 'requires_confirmation',
      from: { organizationId: w.world.orgs.A1.id, organizationName: 'Agency One', role: 'agency_user' },
      to: { organizationId: w.world.orgs.T1.id, organizationName: 'Tenant One', role: 'tenant_manager' },
    });
    const accepted = await w.t.request('POST', '/api/invitations/accept', { token: pendingToken, confirm: true }, { token });
    expect(accepted.body).toMatchObject({ result: 'accepted', organizationId: w.world.orgs.T1.id, role: 'tenant_manager' });
    const me = await w.t.request('GET', '/api/users/me', undefined, { token });
    expect(me.body).toMatchObject({ role: 'tenant_manager', organization_id: w.world.orgs.T1.id });
  });
});

describe('resend, copy link, revoke', () => {
  it('resend mails a fresh link and the old one stops working', async () => {
    const created = await invite('A1.admin', person('resend@new.test', 'agency_user'));
    const old = await mailedToken('resend@new.test');
    const resent = await w.t.request('POST', `/api/invitations/${created.body.invitation.id}/resend`, undefined, {
      token: await as('A1.admin'),
    });
    expect(resent.status).toBe(200);
    const fresh = await mailedToken('resend@new.test');
    expect(fresh).not.toBe(old);
    const replaced = { code: 'invitation_link_replaced', message: MESSAGES.invitations.linkReplaced };
    const accept = await w.t.request('POST', '/api/invitations/accept', { token: old });
    expect(accept.status).toBe(410);
    expect(accept.body.error).toMatchObject(replaced);
    const register = await w.t.request('POST', '/api/invitations/register', { token: old, password: 'a-good-password' });
    expect(register.status).toBe(410);
    expect(register.body.error).toMatchObject(replaced);
    expect(await w.t.database.db.selectFrom('users').select('id').where('email', '=', 'resend@new.test').execute()).toHaveLength(0);
    // Only the hash of the replaced link is kept, as for the live one.
    const kept = await w.t.database.db
      .selectFrom('invitation_replaced_links')
      .selectAll()
      .where('invitation_id', '=', created.body.invitation.id)
      .execute();
    expect(kept.map((row) => row.token_hash)).toEqual([hashToken(old)]);

    expect((await w.t.request('POST', '/api/invitations/accept', { token: fresh })).body.result).toBe('requires_registration');
    const registered = await w.t.request('POST', '/api/invitations/register', { token: fresh, password: 'a-good-password' });
    expect(registered.status).toBe(200);
    // Once accepted, the old link still says it was replaced, the new one that it was used.
    expect((await w.t.request('POST', '/api/invitations/accept', { token: old })).body.error.code).toBe('invitation_link_replaced');
    expect((await w.t.request('POST', '/api/invitations/accept', { token: fresh })).body.error.code).toBe('invitation_used');
  });

  it('a copied link replaces the mailed one, which then says so; an unknown token stays invalid', async () => {
    const created = await invite('A1.admin', person('copied@new.test', 'agency_user'));
    const mailed = await mailedToken('copied@new.test');
    const copied = await w.t.request('POST', `/api/invitations/${created.body.invitation.id}/link`, undefined, {
      token: await as('A1.admin'),
    });
    const token = new URL(copied.body.link).searchParams.get('token')!;
    expect((await w.t.request('POST', '/api/invitations/accept', { token: mailed })).body.error).toMatchObject({
      code: 'invitation_link_replaced',
      message: MESSAGES.invitations.linkReplaced,
    });
    expect((await w.t.request('POST', '/api/invitations/accept', { token })).body.result).toBe('requires_registration');
    const unknown = await w.t.request('POST', '/api/invitations/accept', { token: 'never-issued' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('invitation_invalid');
  });

  it('copy-link gives a working link for admins only', async () => {
    const created = await invite('A1.admin', person('copy@new.test', 'agency_user'));
    const id = created.body.invitation.id;
    expect((await w.t.request('POST', `/api/invitations/${id}/link`, undefined, { token: await as('A1.manager') })).status).toBe(403);
    const response = await w.t.request('POST', `/api/invitations/${id}/link`, undefined, { token: await as('A1.admin') });
    expect(response.status).toBe(200);
    const token = new URL(response.body.link).searchParams.get('token')!;
    expect((await w.t.request('POST', '/api/invitations/accept', { token })).body.email).toBe('copy@new.test');
  });

  it('may be revoked by admins of the organization or its parent only', async () => {
    const outsider = 'outsider@sa3.test';
    await insertUser(w.t.database.db, {
      email: outsider,
      password: PASSWORD,
      role: 'super_agency_admin',
      organizationId: w.world.orgs.SA3.id,
    });
    for (const [who, status] of [
      ['A1.manager', 403],
      ['T1.admin', 404],
      ['H.admin', 403],
      [outsider, 404],
      ['SA1.admin', 200],
    ] as const) {
      const created = await invite('A1.admin', person(`revoke-${status}-${who.replace(/\W/g, '')}@new.test`, 'agency_user'));
      const response = await w.t.request('DELETE', `/api/invitations/${created.body.invitation.id}`, undefined, { token: await as(who) });
      expect(response.status, who).toBe(status);
      const row = await w.t.database.db
        .selectFrom('invitations')
        .select('status')
        .where('id', '=', created.body.invitation.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe(status === 200 ? 'revoked' : 'pending');
    }
  });
});
