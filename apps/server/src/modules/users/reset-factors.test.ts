import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { MESSAGES, MFA, WEBHOOK_EVENT_DATA } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';
import { writeAudit } from '../../lib/audit.ts';

/**
 * Recovery by an admin: a person who lost every second factor asks an admin of their
 * organization or of the one above it, who removes every factor and ends every session; the
 * person and their organization's admins are mailed. Ending sessions and resetting factors
 * follow one rule (`mayEndAccessOf`): an admin two levels up is refused both. Factor changes,
 * resets and policy changes reach subscribed webhook endpoints.
 */
// The sender never looks at the queue here: each queued delivery stays as the trigger wrote it.
const w = useWorld({ webhooks: { pollMs: 3_600_000 } });
const db = () => w.t.database.db;
const call = (token: string, method: string, path: string, body?: unknown) => w.t.request(method, path, body, { token });
const works = async (token: string) => (await call(token, 'GET', '/api/users/me')).status === 200;
const codeAt = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) });

/** A fixture user's e-mail and id. */
async function fixture(who: string) {
  const email = w.world.users[who]!;
  const { id } = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return { id, email };
}

let people = 0;
/** A new user of Tenant One (below Agency One, below Super One). */
async function newPerson() {
  const email = `reset-${++people}@t1.test`;
  const { id } = await insertUser(db(), { email, password: PASSWORD, role: 'tenant_user', organizationId: w.id('T1') });
  return { id, email };
}

let branchAdmins = 0;
/** A new admin of Agency Three, in the other super agency's branch: Tenant One is not below it. */
async function branchAdmin() {
  const email = `branch-admin-${++branchAdmins}@a3.test`;
  await insertUser(db(), { email, password: PASSWORD, role: 'agency_admin', organizationId: w.id('A3') });
  return (await signIn(email)).access_token!;
}

async function signIn(email: string) {
  const response = await w.t.request('POST', '/api/auth/sign-in', { email, password: PASSWORD });
  expect(response.status).toBe(200);
  return response.body as { access_token?: string; mfa_required?: boolean };
}

async function enroll(token: string) {
  const started = await call(token, 'POST', '/api/account/factors/totp', { current_password: PASSWORD });
  expect(started.status).toBe(200);
  const confirmed = await call(token, 'POST', '/api/account/factors/totp/confirm', { code: await codeAt(started.body.secret) });
  expect(confirmed.status).toBe(200);
  return { secret: started.body.secret as string, codes: confirmed.body.recovery_codes as string[] };
}

const mailsTo = (email: string) =>
  db().selectFrom('outbox').select(['subject', 'body_text']).where('to_address', '=', email).orderBy('created_at').execute();
const factorsOf = async (userId: string) => ({
  totp: (await db().selectFrom('totp_factors').select('user_id').where('user_id', '=', userId).execute()).length,
  passkeys: (await db().selectFrom('passkeys').select('id').where('user_id', '=', userId).execute()).length,
  codes: (await db().selectFrom('recovery_codes').select('id').where('user_id', '=', userId).execute()).length,
});

describe('an admin resets a person’s second factors', () => {
  it('removes the app and the codes, ends every session, audits and mails; the password alone signs in and a factor is set up again', async () => {
    const person = await newPerson();
    const first = (await signIn(person.email)).access_token!;
    await enroll(first);
    // A passkey beside the app (its row as registering one writes it): the reset takes it too.
    await db()
      .insertInto('passkeys')
      .values({ user_id: person.id, credential_id: `cred-${person.id}`, public_key: 'AQID', counter: 0, name: 'Laptop' })
      .execute();
    // The person can no longer sign in without a factor.
    expect(await signIn(person.email)).toMatchObject({ mfa_required: true });
    expect(await factorsOf(person.id)).toEqual({ totp: 1, passkeys: 1, codes: MFA.recoveryCodeCount });

    const admin = await w.as('A1.admin');
    const reset = await call(admin, 'POST', `/api/users/${person.id}/factors/reset`);
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body).toEqual({ totp: true, passkeys: 1, recovery_codes: MFA.recoveryCodeCount, ended: 1 });
    expect(await factorsOf(person.id)).toEqual({ totp: 0, passkeys: 0, codes: 0 });
    expect(await works(first)).toBe(false);
    expect(await works(admin)).toBe(true);

    const audit = await db()
      .selectFrom('audit_log')
      .select(['actor_user_id', 'organization_id', 'details'])
      .where('action', '=', 'auth.mfa_reset')
      .where('target_id', '=', person.id)
      .execute();
    expect(audit).toEqual([
      {
        actor_user_id: (await fixture('A1.admin')).id,
        organization_id: w.id('T1'),
        details: { by: 'admin', totp: true, passkeys: 1, recovery_codes: MFA.recoveryCodeCount, ended: 1 },
      },
    ]);

    const adminEmail = (await fixture('A1.admin')).email;
    expect(await mailsTo(person.email)).toEqual([
      { subject: MESSAGES.factorsReset.personSubject, body_text: MESSAGES.factorsReset.person(adminEmail) },
    ]);
    // The tenant's admins are told; the agency's (the one who acted) are not the person's organization's.
    expect(await mailsTo((await fixture('T1.admin')).email)).toContainEqual({
      subject: MESSAGES.factorsReset.adminsSubject('Test User'),
      body_text: MESSAGES.factorsReset.admins('Test User', adminEmail, 'Tenant One'),
    });

    // The password alone gives a session again, and the person sets up an app again.
    const again = await signIn(person.email);
    expect(again.mfa_required).toBeUndefined();
    await enroll(again.access_token!);
    expect(await signIn(person.email)).toMatchObject({ mfa_required: true });
  });

  it('is refused out of reach (another branch finds nobody), without the permission, and on oneself: nothing changes', async () => {
    const person = await newPerson();
    const token = (await signIn(person.email)).access_token!;
    await enroll(token);
    const elsewhere = await branchAdmin();
    expect((await call(elsewhere, 'POST', `/api/users/${person.id}/factors/reset`)).status).toBe(404);
    for (const who of ['T1.manager', 'T1.user']) {
      const refused = await call(await w.as(who), 'POST', `/api/users/${person.id}/factors/reset`);
      expect(refused.status, who).toBe(403);
    }
    const self = await w.as('T1.admin');
    expect((await call(self, 'POST', `/api/users/${(await fixture('T1.admin')).id}/factors/reset`)).status).toBe(403);
    expect(await factorsOf(person.id)).toEqual({ totp: 1, passkeys: 0, codes: MFA.recoveryCodeCount });
    expect(await works(token)).toBe(true);
    expect(await mailsTo(person.email)).toEqual([]);
  });

  it.each(['T1.admin', 'SA1.admin', 'H.admin'])('%s (the own organization, or any above it) may reset', async (who) => {
    const person = await newPerson();
    await enroll((await signIn(person.email)).access_token!);
    const reset = await call(await w.as(who), 'POST', `/api/users/${person.id}/factors/reset`);
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(await factorsOf(person.id)).toEqual({ totp: 0, passkeys: 0, codes: 0 });
  });

  it('asks for a step-up when the admin’s proof is stale, and changes nothing', async () => {
    const person = await newPerson();
    const token = (await signIn(person.email)).access_token!;
    await enroll(token);
    const admin = await insertUser(db(), {
      email: `stale-admin-${people}@t1.test`,
      password: PASSWORD,
      role: 'tenant_admin',
      organizationId: w.id('T1'),
    });
    const adminToken = (await signIn(`stale-admin-${people}@t1.test`)).access_token!;
    await db()
      .updateTable('refresh_sessions')
      .set({ stepped_up_at: new Date(Date.now() - 86_400_000) })
      .where('user_id', '=', admin.id)
      .execute();
    const stale = await call(adminToken, 'POST', `/api/users/${person.id}/factors/reset`);
    expect(stale.status).toBe(401);
    expect(stale.body.error.code).toBe('step_up_required');
    expect(await factorsOf(person.id)).toEqual({ totp: 1, passkeys: 0, codes: MFA.recoveryCodeCount });
    expect(await works(token)).toBe(true);
  });

  it('ending sessions follows the same rule: an admin of another branch finds nobody, an admin three levels up ends them', async () => {
    const person = await newPerson();
    const token = (await signIn(person.email)).access_token!;
    const far = await call(await branchAdmin(), 'POST', `/api/users/${person.id}/sessions/end`);
    expect(far.status).toBe(404);
    expect(await works(token)).toBe(true);
    expect((await call(await w.as('H.admin'), 'POST', `/api/users/${person.id}/sessions/end`)).body).toEqual({ ended: 1 });
    expect(await works(token)).toBe(false);
  });
});

describe('second-factor webhook events', () => {
  it('queue a delivery to a subscribed endpoint for a factor added, removed, reset, and a policy changed; no secret in the data', {
    timeout: 120_000,
  }, async () => {
    const t1 = w.id('T1');
    const types = ['member.factor_added', 'member.factor_removed', 'member.factors_reset', 'organization.mfa_policy_changed'] as const;
    const endpoint = await db()
      .insertInto('webhook_endpoints')
      .values({ organization_id: t1, url: 'https://receiver.example/hooks', event_types: [...types], secret_encrypted: 'sealed' })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Subscribed to one type only: gets none of the others.
    await db()
      .insertInto('webhook_endpoints')
      .values({ organization_id: t1, url: 'https://other.example/hooks', event_types: ['balance.low'], secret_encrypted: 'sealed' })
      .execute();

    const person = await newPerson();
    const token = (await signIn(person.email)).access_token!;
    const { codes } = await enroll(token);
    expect((await call(token, 'POST', '/api/account/factors/totp/remove', { code: codes[0] })).status).toBe(200);
    await enroll(token);
    expect((await call(await w.as('A1.admin'), 'POST', `/api/users/${person.id}/factors/reset`)).status).toBe(200);

    // The policy change's audit row, as the policy change writes it in its transaction.
    const policy = { require_own: true, require_subtree: false, require_admins: false, grace_days: 3 };
    await writeAudit(db(), {
      actorUserId: (await fixture('T1.admin')).id,
      organizationId: t1,
      action: 'mfa_policy.changed',
      targetType: 'organization',
      targetId: t1,
      details: { before: { require_own: false, require_subtree: false, require_admins: false, grace_days: 7 }, after: policy },
    });

    const rows = await db()
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select(['e.type', 'e.organization_id', 'e.data', 'd.endpoint_id'])
      .where('e.type', 'in', [...types])
      .orderBy('e.created_at')
      .execute();
    expect(rows.every((row) => row.endpoint_id === endpoint.id && row.organization_id === t1)).toBe(true);
    const person_ = { user_id: person.id, email: person.email };
    expect(rows.map((row) => [row.type, row.data])).toEqual([
      ['member.factor_added', { ...person_, method: 'totp' }],
      ['member.factor_removed', { ...person_, method: 'totp' }],
      ['member.factor_added', { ...person_, method: 'totp' }],
      ['member.factors_reset', { ...person_, reset_by: (await fixture('A1.admin')).id }],
      ['organization.mfa_policy_changed', { changed_by: (await fixture('T1.admin')).id, policy }],
    ]);
    for (const row of rows) expect(WEBHOOK_EVENT_DATA[row.type].safeParse(row.data).success, row.type).toBe(true);
  });
});
