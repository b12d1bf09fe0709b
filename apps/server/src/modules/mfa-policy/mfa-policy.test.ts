import { beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { generate } from 'otplib';
import { API, MESSAGES, isMfaEnrollmentExempt, type Endpoint } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD } from '../../test/fixtures.ts';

const w = useWorld();
const db = () => w.t.database.db;
const DAY = 24 * 60 * 60 * 1000;

const off = { require_own: false, require_subtree: false, require_admins: false, grace_days: 7 };
const put = async (who: string, org: string, body: unknown) =>
  w.t.request('PUT', `/api/organizations/${org}/mfa-policy`, body, { token: await w.as(who) });
const get = async (who: string, org: string) =>
  w.t.request('GET', `/api/organizations/${org}/mfa-policy`, undefined, { token: await w.as(who) });
const me = async (who: string) => (await w.t.request('GET', '/api/users/me', undefined, { token: await w.as(who) })).body;
const userId = async (who: string) =>
  (await db().selectFrom('users').select('id').where('email', '=', w.world.users[who]!).executeTakeFirstOrThrow()).id;
const sinceOf = async (org: string, column: 'own_since' | 'subtree_since' | 'admins_since') =>
  (await db().selectFrom('mfa_policies').select(column).where('organization_id', '=', org).executeTakeFirstOrThrow())[column]!;
const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY).toISOString();

async function enroll(who: string) {
  const token = await w.as(who);
  const started = await w.t.request('POST', '/api/account/factors/totp', { current_password: PASSWORD }, { token });
  expect(started.status).toBe(200);
  const confirmed = await w.t.request(
    'POST',
    '/api/account/factors/totp/confirm',
    { code: await generate({ secret: started.body.secret }) },
    { token },
  );
  expect(confirmed.status).toBe(200);
}

// Every test starts from no policy at all.
beforeEach(async () => {
  await db().deleteFrom('mfa_policies').execute();
});

describe('second-factor policy: who may read and set it', () => {
  it("is the organization's own admins' alone: others in scope 403, out of scope 404, the admins requirement the house's only", async () => {
    for (const who of ['T1.manager', 'T1.user']) {
      expect((await put(who, w.id('T1'), { ...off, require_own: true })).status, who).toBe(403);
      expect((await get(who, w.id('T1'))).status, who).toBe(403);
    }
    // A parent's admin does not set a child's policy (they require it below through their own).
    const parent = await put('A1.admin', w.id('T1'), { ...off, require_own: true });
    expect(parent.status).toBe(403);
    expect(parent.body.error.message).toBe(MESSAGES.mfaPolicy.onlyOwnAdmins);
    expect((await get('A1.admin', w.id('T1'))).status).toBe(403);
    // Above or beside: not even found.
    expect((await get('T1.admin', w.id('A1'))).status).toBe(404);
    expect((await put('T1.admin', w.id('T2'), off)).status).toBe(404);
    expect((await put('H.admin', w.id('H2'), off)).status).toBe(404);
    const admins = await put('SA1.admin', w.id('SA1'), { ...off, require_admins: true });
    expect(admins.status).toBe(422);
    expect(admins.body.error.message).toBe(MESSAGES.mfaPolicy.adminsOnlyHouse);
    expect((await put('T1.admin', w.id('T1'), { ...off, grace_days: 15 })).status).toBe(400);
    expect(await db().selectFrom('mfa_policies').selectAll().execute()).toEqual([]);
  });

  it('is audited with what it was and what it became', async () => {
    const saved = await put('T1.admin', w.id('T1'), { ...off, require_own: true, grace_days: 3 });
    expect(saved.status).toBe(200);
    expect(saved.body.policy).toMatchObject({
      require_own: true,
      require_subtree: false,
      grace_days: 3,
      updated_by_email: w.world.users['T1.admin'],
    });
    const rows = await db()
      .selectFrom('audit_log')
      .select(['organization_id', 'details'])
      .where('action', '=', 'mfa_policy.changed')
      .where('organization_id', '=', w.id('T1'))
      .execute();
    expect(rows.at(-1)).toEqual({
      organization_id: w.id('T1'),
      details: { before: off, after: { ...off, require_own: true, grace_days: 3 } },
    });
  });
});

describe('second-factor policy: loosening asks for a fresh second factor', () => {
  it('tightening goes through on an old proof; turning off or lengthening the grace answers step_up_required and changes nothing', async () => {
    expect((await put('A1.admin', w.id('A1'), { ...off, require_own: true, grace_days: 5 })).status).toBe(200);
    // The sign-in's proof is a day old.
    await db()
      .updateTable('refresh_sessions')
      .set({ stepped_up_at: sql`now() - interval '1 day'` })
      .where('user_id', '=', await userId('A1.admin'))
      .execute();
    expect((await put('A1.admin', w.id('A1'), { ...off, require_own: true, require_subtree: true, grace_days: 2 })).status).toBe(200);
    for (const looser of [
      { ...off, require_own: true, require_subtree: true, grace_days: 3 },
      { ...off, require_own: false, require_subtree: true, grace_days: 2 },
      off,
    ]) {
      const refused = await put('A1.admin', w.id('A1'), looser);
      expect(refused.status, JSON.stringify(looser)).toBe(401);
      expect(refused.body.error.code).toBe('step_up_required');
    }
    expect((await get('A1.admin', w.id('A1'))).body.policy).toMatchObject({ require_own: true, require_subtree: true, grace_days: 2 });
  });
});

describe('second-factor policy: the requirement flows down the tree', () => {
  it('an ancestor requires it below; a child cannot loosen it; the union applies and the shortest grace wins', async () => {
    expect((await put('SA1.admin', w.id('SA1'), { ...off, require_subtree: true, grace_days: 2 })).status).toBe(200);
    const subtreeSince = await sinceOf(w.id('SA1'), 'subtree_since');
    // The child turns its own requirement off with the longest grace: the ancestor's still applies.
    expect((await put('T1.admin', w.id('T1'), { ...off, grace_days: 14 })).status).toBe(200);
    expect((await me('T1.user')).mfa_enrollment).toEqual({ required: true, deadline: plusDays(subtreeSince, 2) });
    const read = await get('T1.admin', w.id('T1'));
    expect(read.body.inherited).toEqual([
      {
        organization_id: w.id('SA1'),
        organization_name: 'Super One',
        org_type: 'super_agency',
        kind: 'subtree',
        grace_days: 2,
        since: expect.any(String),
      },
    ]);
    // The subtree requirement does not reach SA1's own people.
    expect((await me('SA1.user')).mfa_enrollment).toBeNull();

    // The child tightens: its own requirement with a shorter grace gives the earlier deadline.
    expect((await put('T1.admin', w.id('T1'), { ...off, require_own: true, grace_days: 1 })).status).toBe(200);
    const ownSince = await sinceOf(w.id('T1'), 'own_since');
    expect((await me('T1.user')).mfa_enrollment).toEqual({ required: true, deadline: plusDays(ownSince, 1) });
    // A longer grace below never extends the ancestor's.
    expect((await put('T1.admin', w.id('T1'), { ...off, require_own: true, grace_days: 9 })).status).toBe(200);
    expect((await me('T1.user')).mfa_enrollment).toEqual({ required: true, deadline: plusDays(subtreeSince, 2) });
    // Saving again keeps the requirement's start: nobody gains time.
    expect(await sinceOf(w.id('T1'), 'own_since')).toBe(ownSince);
  });

  it("the house's admin requirement reaches every admin role in the tree and nobody else", async () => {
    expect((await put('H.admin', w.id('H'), { ...off, require_admins: true, grace_days: 5 })).status).toBe(200);
    const since = await sinceOf(w.id('H'), 'admins_since');
    for (const who of ['H.admin', 'SA1.admin', 'A1.admin', 'T1.admin']) {
      expect((await me(who)).mfa_enrollment, who).toEqual({ required: true, deadline: plusDays(since, 5) });
    }
    for (const who of ['H.manager', 'A1.user', 'T1.manager', 'T1.user']) expect((await me(who)).mfa_enrollment, who).toBeNull();
    expect((await get('T1.admin', w.id('T1'))).body.inherited).toMatchObject([
      { organization_id: w.id('H'), kind: 'admins', grace_days: 5 },
    ]);
  });

  it("a person promoted to admin gets the admins requirement's whole grace from the promotion, not from their joining", async () => {
    expect((await put('H.admin', w.id('H'), { ...off, require_admins: true, grace_days: 5 })).status).toBe(200);
    // The requirement is a month old; T1.user joined two months ago.
    await db()
      .updateTable('mfa_policies')
      .set({ admins_since: sql`now() - interval '30 days'` })
      .where('organization_id', '=', w.id('H'))
      .execute();
    const person = await userId('T1.user');
    await db().updateTable('users').set({ created_at: sql`now() - interval '60 days'` }).where('id', '=', person).execute();
    expect((await me('T1.user')).mfa_enrollment).toBeNull();
    const promoted = await w.t.request('PUT', `/api/users/${person}/role`, { role: 'tenant_admin' }, { token: await w.as('T1.admin') });
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    const { admin_since } = await db().selectFrom('users').select('admin_since').where('id', '=', person).executeTakeFirstOrThrow();
    expect(admin_since).not.toBeNull();
    const deadline = plusDays(new Date(admin_since!).toISOString(), 5);
    expect((await me('T1.user')).mfa_enrollment).toEqual({ required: true, deadline });
    // Still within the grace: the person works on (the account is not all that is left).
    const token = await w.as('T1.user');
    expect((await w.t.request('GET', `/api/organizations/${w.id('T1')}`, undefined, { token })).status).toBe(200);
    // Back to a user: the admins requirement no longer reaches them.
    await w.t.request('PUT', `/api/users/${person}/role`, { role: 'tenant_user' }, { token: await w.as('T1.admin') });
    expect((await me('T1.user')).mfa_enrollment).toBeNull();
  });

  it("a person's grace starts at their joining when they join after the requirement", async () => {
    expect((await put('A1.admin', w.id('A1'), { ...off, require_own: true, grace_days: 4 })).status).toBe(200);
    // The requirement is a week old; A1.user joined yesterday.
    await db()
      .updateTable('mfa_policies')
      .set({ own_since: sql`now() - interval '7 days'` })
      .where('organization_id', '=', w.id('A1'))
      .execute();
    await db()
      .updateTable('users')
      .set({ created_at: sql`now() - interval '1 day'` })
      .where('id', '=', await userId('A1.user'))
      .execute();
    const joined = (
      await db()
        .selectFrom('users')
        .select('created_at')
        .where('id', '=', await userId('A1.user'))
        .executeTakeFirstOrThrow()
    ).created_at;
    expect((await me('A1.user')).mfa_enrollment).toEqual({ required: true, deadline: plusDays(joined, 4) });
  });
});

describe('second-factor policy: past the grace', () => {
  it('leaves only the account, the profile and the factors; enrolling lifts it at once', async () => {
    expect((await put('T1.admin', w.id('T1'), { ...off, require_own: true, grace_days: 5 })).status).toBe(200);
    const token = await w.as('T1.user');
    const dashboard = () => w.t.request('GET', '/api/dashboard', undefined, { token });
    // Within the grace: everything works, and the profile says by when.
    expect((await dashboard()).status).toBe(200);
    // Six days later (the person joined long before) the grace is over.
    await db()
      .updateTable('users')
      .set({ created_at: sql`now() - interval '30 days'` })
      .where('id', '=', await userId('T1.user'))
      .execute();
    await db()
      .updateTable('mfa_policies')
      .set({ own_since: sql`now() - interval '6 days'` })
      .where('organization_id', '=', w.id('T1'))
      .execute();
    const sessionRoutes = Object.values(API)
      .flatMap((group) => Object.values(group) as Endpoint[])
      .filter((e) => e.auth === 'session');
    let refused = 0;
    for (const e of sessionRoutes) {
      const path = '/api' + e.path.replace(/:[a-zA-Z]+/g, '00000000-0000-4000-8000-000000000000');
      const answer = await w.t.request(e.method, path, e.method === 'GET' ? undefined : {}, { token });
      if (isMfaEnrollmentExempt(e.path)) {
        expect(answer.body?.error?.code, `${e.method} ${e.path}`).not.toBe('mfa_enrollment_required');
      } else {
        expect(answer.status, `${e.method} ${e.path}`).toBe(403);
        expect(answer.body.error, `${e.method} ${e.path}`).toEqual({
          code: 'mfa_enrollment_required',
          message: MESSAGES.mfaPolicy.enrollmentRequired,
        });
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(30);
    const profile = await w.t.request('GET', '/api/users/me', undefined, { token });
    expect(profile.status).toBe(200);
    expect(Date.parse(profile.body.mfa_enrollment.deadline)).toBeLessThan(Date.now());
    await enroll('T1.user');
    expect((await dashboard()).status).toBe(200);
    expect((await me('T1.user')).mfa_enrollment).toBeNull();
  });
});

describe('second-factor policy: coverage', () => {
  it("lists the organization's covered people, who has not enrolled yet and their deadline", async () => {
    expect((await get('A1.admin', w.id('A1'))).body.coverage).toEqual({ covered: 0, not_enrolled: 0, people: [], truncated: false });
    expect((await put('A1.admin', w.id('A1'), { ...off, require_own: true, grace_days: 3 })).status).toBe(200);
    await enroll('A1.manager');
    const since = await sinceOf(w.id('A1'), 'own_since');
    const { coverage } = (await get('A1.admin', w.id('A1'))).body;
    expect(coverage.covered).toBe(4);
    expect(coverage.not_enrolled).toBe(3);
    // Those without a factor first (same deadline: by e-mail), the enrolled last.
    expect(coverage.people.map((p: { email: string }) => p.email)).toEqual([
      ...['A1.admin', 'A1.support', 'A1.user'].map((k) => w.world.users[k]).sort(),
      w.world.users['A1.manager'],
    ]);
    const manager = coverage.people.find((p: { email: string }) => p.email === w.world.users['A1.manager']);
    expect(manager).toMatchObject({ enrolled: true, deadline: null, role: 'agency_manager' });
    for (const p of coverage.people.filter((p: { enrolled: boolean }) => !p.enrolled)) expect(p.deadline).toBe(plusDays(since, 3));
  });
});
