import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES, RATE_LIMITS } from '@console/domain';
import { createTestApp, useWorld, type ApiResponse, type WorldTest } from '../../test/harness.ts';
import { PASSWORD, buildWorld, insertOrg, insertUser, tablesDigest } from '../../test/fixtures.ts';

/** The production invitation limits (the harness raises them for the other suites). */
const PRODUCTION = {
  invitationsPerInviter: RATE_LIMITS.invitationsPerInviter,
  invitationsPerRecipient: RATE_LIMITS.invitationsPerRecipient,
  invitationsPerSuperAgency: RATE_LIMITS.invitationsPerSuperAgency,
  invitationsPerAgency: RATE_LIMITS.invitationsPerAgency,
  invitationsPerTenant: RATE_LIMITS.invitationsPerTenant,
  invitationWindowSeconds: RATE_LIMITS.invitationWindowSeconds,
  invitationResendIntervalSeconds: RATE_LIMITS.invitationResendIntervalSeconds,
};

/** Everything a refused request must leave as it was, its own counts included. */
/**
 * The shared counters (a person's changes count in them) write their rows in the background;
 * kept from syncing, they leave `rate_limits` to what the invitation limits write.
 */
const NO_SYNC = 3_600_000;
const TOUCHED = ['invitations', 'invitation_replaced_links', 'outbox', 'mail_queue', 'audit_log', 'rate_limits'] as const;

const m = MESSAGES.invitations;

function helpers(w: WorldTest) {
  const db = () => w.t.database.db;
  const person = (email: string, role: string, organization_id?: string) => ({
    email,
    first_name: 'Nora',
    last_name: 'Newcomer',
    role,
    organization_id,
  });
  return {
    db,
    invite: async (who: string, email: string, role: string, organizationId?: string) =>
      w.t.request('POST', '/api/invitations', person(email, role, organizationId), { token: await w.as(who) }),
    resend: async (who: string, id: string) => w.t.request('POST', `/api/invitations/${id}/resend`, undefined, { token: await w.as(who) }),
    link: async (who: string, id: string) => w.t.request('POST', `/api/invitations/${id}/link`, undefined, { token: await w.as(who) }),
    /** Mails to an address (the outbox, where the test app's mailer keeps them). */
    mails: async (email: string) =>
      (
        await db()
          .selectFrom('outbox')
          .select(sql<number>`count(*)::int`.as('n'))
          .where(sql`lower(to_address)`, '=', email.toLowerCase())
          .executeTakeFirstOrThrow()
      ).n,
    invitations: async (email: string) =>
      (
        await db()
          .selectFrom('invitations')
          .select(sql<number>`count(*)::int`.as('n'))
          .where(sql`lower(email)`, '=', email.toLowerCase())
          .executeTakeFirstOrThrow()
      ).n,
    digest: () => tablesDigest(db(), TOUCHED),
    /** The resend interval of every invitation as if it had passed (its last mail a minute ago). */
    intervalPassed: async () => {
      await db()
        .updateTable('rate_limits')
        .set({ reset_at: sql`now() - interval '1 second'` })
        .where('key', 'like', 'invitation:sent:%')
        .execute();
    },
  };
}

/** A 429 with Retry-After in whole seconds and the message for that wait. */
function expectRefused(response: ApiResponse, message: (seconds: number) => string, most: number) {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(most);
  expect(response.body.error.message).toBe(message(retryAfter));
  expect(response.body.error.message).toMatch(/Try again in \d+ (seconds?|minutes)\.$/);
}

describe('invitation limits (production defaults)', () => {
  const w = useWorld({ rateLimits: PRODUCTION, machineLimitSyncMs: NO_SYNC });
  const h = helpers(w);
  const hour = PRODUCTION.invitationWindowSeconds;

  it('a tenant manager inviting 50 addresses at once mails the per-inviter allowance; the rest are 429 and write nothing', async () => {
    const emails = Array.from({ length: 50 }, (_, i) => `outsider${i}@limits.test`);
    const answers = await Promise.all(emails.map((email) => h.invite('T1.manager', email, 'tenant_user')));
    const allowed = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(allowed).toHaveLength(PRODUCTION.invitationsPerInviter);
    expect(refused).toHaveLength(50 - PRODUCTION.invitationsPerInviter);
    for (const answer of refused) expectRefused(answer, m.tooManyFromInviter, hour);
    // Exactly the admitted ones were written and mailed.
    for (const [i, email] of emails.entries()) {
      const expected = answers[i]!.status === 201 ? 1 : 0;
      expect(await h.invitations(email), email).toBe(expected);
      expect(await h.mails(email), email).toBe(expected);
    }
    // One more refusal changes nothing, its own counts included.
    const before = await h.digest();
    expectRefused(await h.invite('T1.manager', 'late@limits.test', 'tenant_user'), m.tooManyFromInviter, hour);
    expect(await h.digest()).toBe(before);
    // Another inviter of the same tenant still invites.
    expect((await h.invite('T1.admin', 'other-inviter@limits.test', 'tenant_user')).status).toBe(201);
  });

  it('100 concurrent resends of one invitation mail once, after the resend interval, and never past the recipient allowance', async () => {
    const email = 'Resent.Person@limits.test';
    const created = await h.invite('A1.admin', email, 'agency_user');
    expect(created.status).toBe(201);
    const id = created.body.invitation.id as string;
    expect(await h.mails(email)).toBe(1);

    // Within the interval since the invitation was mailed, every resend is refused.
    const early = await Promise.all(Array.from({ length: 100 }, () => h.resend('A1.admin', id)));
    for (const answer of early) expectRefused(answer, m.resentTooSoon, PRODUCTION.invitationResendIntervalSeconds);
    expect(await h.mails(email)).toBe(1);

    // Once it has passed, one resend of a hundred goes out and starts the next interval.
    await h.intervalPassed();
    const burst = await Promise.all(Array.from({ length: 100 }, () => h.resend('A1.admin', id)));
    expect(burst.filter((a) => a.status === 200)).toHaveLength(1);
    for (const answer of burst.filter((a) => a.status !== 200)) {
      expectRefused(answer, m.resentTooSoon, PRODUCTION.invitationResendIntervalSeconds);
    }
    expect(await h.mails(email)).toBe(2);

    await h.intervalPassed();
    expect((await h.resend('A1.admin', id)).status).toBe(200);
    expect(await h.mails(email)).toBe(PRODUCTION.invitationsPerRecipient);

    // The address has had its allowance for the hour: a resend is refused, and changes nothing.
    await h.intervalPassed();
    const before = await h.digest();
    expectRefused(await h.resend('A1.admin', id), m.tooManyToAddress, hour);
    expect(await h.digest()).toBe(before);
    expect(await h.mails(email)).toBe(PRODUCTION.invitationsPerRecipient);
  });

  it('counts one address across organizations and inviters, whatever its case', async () => {
    const answers = [
      await h.invite('H.admin', 'same.person@limits.test', 'house_user'),
      await h.invite('SA1.admin', 'Same.Person@limits.test', 'super_agency_user'),
      await h.invite('A1.manager', 'SAME.PERSON@limits.test', 'agency_user'),
    ];
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    await w.as('T1.admin'); // signed in first: a sign-in writes to the audit log
    const before = await h.digest();
    expectRefused(await h.invite('T1.admin', 'same.person@LIMITS.test', 'tenant_user'), m.tooManyToAddress, hour);
    expect(await h.digest()).toBe(before);
    expect(await h.invitations('same.person@limits.test')).toBe(3);
    expect(await h.mails('same.person@limits.test')).toBe(3);
  });

  it('limits copy-link like a mail to the address, without the resend interval; a refusal keeps the link', async () => {
    const email = 'copied@limits.test';
    const created = await h.invite('A1.admin', email, 'agency_user');
    const id = created.body.invitation.id as string;
    // Copying a link right after the mail is no resend: it need not wait the interval.
    expect((await h.link('A1.admin', id)).status).toBe(200);
    const last = await h.link('A1.admin', id);
    expect(last.status).toBe(200);
    const before = await h.digest();
    expectRefused(await h.link('A1.admin', id), m.tooManyToAddress, hour);
    expect(await h.digest()).toBe(before);
    // The last copied link still works.
    const token = new URL(last.body.link as string).searchParams.get('token');
    const read = await w.t.request('POST', '/api/invitations/accept', { token });
    expect(read.status).toBe(200);
    expect(await h.mails(email)).toBe(1);
  });
});

describe('invitation limits per subtree', () => {
  const w = useWorld({ rateLimits: { ...PRODUCTION, invitationsPerAgency: 4, invitationsPerTenant: 3 }, machineLimitSyncMs: NO_SYNC });
  const h = helpers(w);

  it("two tenants' admins share their agency's allowance; another agency keeps its own", async () => {
    await insertUser(h.db(), { email: 'admin@t2.test', password: PASSWORD, role: 'tenant_admin', organizationId: w.id('T2') });
    await insertUser(h.db(), { email: 'admin@a3.test', password: PASSWORD, role: 'agency_admin', organizationId: w.id('A3') });
    expect((await h.invite('T1.admin', 'sub1@limits.test', 'tenant_user')).status).toBe(201);
    expect((await h.invite('T1.admin', 'sub2@limits.test', 'tenant_user')).status).toBe(201);
    expect((await h.invite('admin@t2.test', 'sub3@limits.test', 'tenant_user')).status).toBe(201);
    expect((await h.invite('admin@t2.test', 'sub4@limits.test', 'tenant_user')).status).toBe(201);
    // Agency One's subtree has had its four: from either tenant, and from the agency itself.
    await w.as('A1.admin'); // signed in first: a sign-in writes to the audit log
    const before = await h.digest();
    expectRefused(await h.invite('admin@t2.test', 'sub5@limits.test', 'tenant_user'), m.tooManyForOrganization, 3600);
    expectRefused(await h.invite('T1.admin', 'sub6@limits.test', 'tenant_user'), m.tooManyForOrganization, 3600);
    expectRefused(await h.invite('A1.admin', 'sub7@limits.test', 'agency_user'), m.tooManyForOrganization, 3600);
    expect(await h.digest()).toBe(before);
    expect(await h.mails('sub5@limits.test')).toBe(0);
    // A sibling agency in another super agency is not held back.
    expect((await h.invite('admin@a3.test', 'sub8@limits.test', 'agency_user')).status).toBe(201);
    // Nor is the house, which has no allowance of its own.
    expect((await h.invite('H.admin', 'sub9@limits.test', 'house_user')).status).toBe(201);
  });

  it("counts a tenant against its own allowance below its agency's", async () => {
    const agency = await insertOrg(h.db(), { name: 'Agency Four', type: 'agency', parentId: w.id('SA2') });
    const tenant = await insertOrg(h.db(), { name: 'Tenant Four', type: 'tenant', parentId: agency.id });
    await insertUser(h.db(), { email: 'admin@a4.test', password: PASSWORD, role: 'agency_admin', organizationId: agency.id });
    await insertUser(h.db(), { email: 'admin@t4.test', password: PASSWORD, role: 'tenant_admin', organizationId: tenant.id });
    for (const n of [1, 2, 3]) expect((await h.invite('admin@t4.test', `t4-${n}@limits.test`, 'tenant_user')).status).toBe(201);
    expectRefused(await h.invite('admin@t4.test', 't4-4@limits.test', 'tenant_user'), m.tooManyForOrganization, 3600);
    // The agency has one left of its four, for itself or another tenant.
    expect((await h.invite('admin@a4.test', 'a4-1@limits.test', 'agency_user')).status).toBe(201);
    expectRefused(await h.invite('admin@a4.test', 'a4-2@limits.test', 'agency_user'), m.tooManyForOrganization, 3600);
  });
});

describe('invitation limits across server processes', () => {
  it('two apps on one database share the per-inviter allowance', async () => {
    const first = await createTestApp({ rateLimits: PRODUCTION, machineLimitSyncMs: NO_SYNC });
    // A second app (its own limiter, its own signing secret) on the same database.
    const second = await createTestApp({
      rateLimits: PRODUCTION,
      machineLimitSyncMs: NO_SYNC,
      database: { ...first.database, close: async () => {} },
    });
    try {
      const world = await buildWorld(first.database.db);
      const email = world.users['T1.manager']!;
      const tokens = [(await first.signIn(email, PASSWORD)).token, (await second.signIn(email, PASSWORD)).token];
      const apps = [first, second];
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          apps[i % 2]!.request(
            'POST',
            '/api/invitations',
            { email: `shared${i}@limits.test`, first_name: 'Nora', last_name: 'Newcomer', role: 'tenant_user' },
            { token: tokens[i % 2] },
          ),
        ),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(PRODUCTION.invitationsPerInviter);
      for (const answer of answers.filter((a) => a.status !== 201)) expectRefused(answer, m.tooManyFromInviter, 3600);
      const mailed = await first.database.db
        .selectFrom('outbox')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('to_address', 'like', 'shared%@limits.test')
        .executeTakeFirstOrThrow();
      expect(mailed.n).toBe(PRODUCTION.invitationsPerInviter);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
