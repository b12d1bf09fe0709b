/**
 * An invitation into an organization deleted after it was sent, through real HTTP:
 * - deleting an organization revokes its pending invitations;
 * - and whatever the invitation's status, a link into a deleted organization is refused at
 *   acceptance (signed out, signed in, confirmed) and at registration with 410
 *   invitation_organization_deleted, and nobody joins or is created. Rows written by an
 *   older deletion that left its invitations pending are made here by soft-deleting the
 *   organization directly in SQL.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { useWorld, type ApiResponse } from '../../test/harness.ts';
import { PASSWORD, insertOrg, insertUser, tablesDigest } from '../../test/fixtures.ts';

const w = useWorld();
const db = () => w.t.database.db;
const m = MESSAGES.invitations;

const invite = async (email: string, organizationId: string) =>
  w.t.request(
    'POST',
    '/api/invitations',
    { email, first_name: 'Ada', last_name: 'Late', role: 'tenant_user', organization_id: organizationId },
    { token: await w.as('A1.admin') },
  );
const accept = (token: string, options: { bearer?: string; confirm?: boolean } = {}) =>
  w.t.request('POST', '/api/invitations/accept', options.confirm === undefined ? { token } : { token, confirm: options.confirm }, {
    token: options.bearer,
  });
const register = (token: string) => w.t.request('POST', '/api/invitations/register', { token, password: 'a-good-password' });

/** The token of the newest mail to an address, read from the outbox as the person would. */
async function mailedToken(email: string): Promise<string> {
  const row = await db()
    .selectFrom('outbox')
    .select('link')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return new URL(row.link!).searchParams.get('token')!;
}

function expectGone(response: ApiResponse) {
  expect(response.status, JSON.stringify(response.body)).toBe(410);
  expect(response.body).toEqual({ error: { code: 'invitation_organization_deleted', message: m.organizationDeleted } });
}

/** A tenant under A1 with two pending invitations: a new e-mail, and an account in another tree (signed in). */
async function invitedTenant(name: string, slug: string) {
  const org = await insertOrg(db(), { name, type: 'tenant', parentId: w.id('A1') });
  const existingEmail = `existing@${slug}.test`;
  const account = await insertUser(db(), {
    email: existingEmail,
    password: PASSWORD,
    role: 'super_agency_user',
    organizationId: w.id('SA3'),
  });
  for (const email of [`new@${slug}.test`, existingEmail]) expect((await invite(email, org.id)).status).toBe(201);
  return {
    org,
    account,
    fresh: await mailedToken(`new@${slug}.test`),
    existing: await mailedToken(existingEmail),
    bearer: (await w.t.signIn(existingEmail, PASSWORD)).token,
    newEmail: `new@${slug}.test`,
  };
}

async function statuses(organizationId: string) {
  const rows = await db()
    .selectFrom('invitations')
    .select(['status', 'revoked_at'])
    .where('organization_id', '=', organizationId)
    .execute();
  return rows.map((r) => [r.status, r.revoked_at !== null]);
}

/** Every refusal, then: nothing about people changed, nobody registered, the account stayed where it was. */
async function expectEveryUseRefused(t: Awaited<ReturnType<typeof invitedTenant>>) {
  const before = await tablesDigest(db(), ['users', 'invitations', 'refresh_sessions']);
  expectGone(await accept(t.fresh));
  expectGone(await register(t.fresh));
  expectGone(await accept(t.existing));
  expectGone(await accept(t.existing, { bearer: t.bearer }));
  expectGone(await accept(t.existing, { bearer: t.bearer, confirm: true }));
  expect(await tablesDigest(db(), ['users', 'invitations', 'refresh_sessions'])).toBe(before);
  expect(await db().selectFrom('users').select('id').where(sql`lower(email)`, '=', t.newEmail).execute()).toEqual([]);
  const account = await db().selectFrom('users').select('organization_id').where('id', '=', t.account.id).executeTakeFirstOrThrow();
  expect(account.organization_id).toBe(w.id('SA3'));
}

describe('deleting an organization with pending invitations', () => {
  it('revokes them in the same deletion, and their links say the organization is gone', async () => {
    const t = await invitedTenant('Deleted Tenant', 'deleted');
    expect(await statuses(t.org.id)).toEqual([
      ['pending', false],
      ['pending', false],
    ]);
    expect((await w.t.request('DELETE', `/api/organizations/${t.org.id}`, undefined, { token: await w.as('A1.admin') })).status).toBe(204);
    expect(await statuses(t.org.id)).toEqual([
      ['revoked', true],
      ['revoked', true],
    ]);
    const audit = await db()
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'organization.delete')
      .where('target_id', '=', t.org.id)
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ revoked_invitations: 2 });
    await expectEveryUseRefused(t);
  });
});

describe('an invitation still pending in an organization deleted without revoking it', () => {
  it('is refused at acceptance and at registration with a clear message, and changes nothing', async () => {
    const t = await invitedTenant('Quietly Deleted', 'quiet');
    await sql`update organizations set deleted_at = now() where id = ${t.org.id}`.execute(db());
    expect(await statuses(t.org.id)).toEqual([
      ['pending', false],
      ['pending', false],
    ]);
    await expectEveryUseRefused(t);
    // Still pending: only the organization's deletion stands in the way.
    expect(await statuses(t.org.id)).toEqual([
      ['pending', false],
      ['pending', false],
    ]);
  });
});
