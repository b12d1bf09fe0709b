import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { IDENTITY, MESSAGES, createdScimTokenSchema, scimCallListSchema, scimTokenListSchema } from '@console/domain';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';
import { useWorld } from '../../test/harness.ts';

const w = useWorld();
const db = () => w.t.database.db;
const m = MESSAGES.identity;

const tokensOf = (org: string) => `/api/organizations/${org}/scim-tokens`;
const call = async (who: string | null, method: string, path: string, body?: unknown) =>
  w.t.request(method, path, body, who ? { token: await w.as(who) } : {});

async function make(who: string, org: string, name = 'Okta') {
  const made = await call(who, 'POST', tokensOf(org), { name });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return createdScimTokenSchema.parse(made.body);
}

const scimStatus = async (secret: string) => (await w.t.request('GET', '/scim/v2/Users', undefined, { token: secret })).status;

describe('who manages SCIM tokens', () => {
  it("lets only the organization's own admins list, make, rotate, revoke and read calls; 404 outside the caller's subtree", async () => {
    const own = await make('A1.admin', w.id('A1'));
    const cases: [string | null, number][] = [
      [null, 401],
      ['A1.manager', 403],
      ['A1.user', 403],
      ['SA1.admin', 403],
      ['H.admin', 403],
      ['T1.admin', 404],
    ];
    for (const [who, status] of cases) {
      const answers = [
        await call(who, 'GET', tokensOf(w.id('A1'))),
        await call(who, 'POST', tokensOf(w.id('A1')), { name: 'Intruder' }),
        await call(who, 'POST', `${tokensOf(w.id('A1'))}/${own.token.id}/rotate`),
        await call(who, 'DELETE', `${tokensOf(w.id('A1'))}/${own.token.id}`),
        await call(who, 'GET', `/api/organizations/${w.id('A1')}/scim-calls`),
      ];
      expect(
        answers.map((a) => a.status),
        `${who}`,
      ).toEqual(answers.map(() => status));
    }
    expect(await scimStatus(own.secret)).toBe(200);
    const names = await db().selectFrom('scim_tokens').select('name').where('organization_id', '=', w.id('A1')).execute();
    expect(names.map((n) => n.name)).toEqual(['Okta']);
  });

  it('asks for a recent proof of a second factor (or the password) to make or rotate a token', async () => {
    const own = await make('SA1.admin', w.id('SA1'), 'Step');
    const admin = w.world.users['SA1.admin']!;
    await db()
      .updateTable('refresh_sessions')
      .set({ stepped_up_at: sql`now() - interval '1 hour'` })
      .where('user_id', 'in', db().selectFrom('users').select('id').where('email', '=', admin))
      .execute();
    const made = await call('SA1.admin', 'POST', tokensOf(w.id('SA1')), { name: 'Later' });
    expect(made.status).toBe(401);
    expect(made.body.error.code).toBe('step_up_required');
    const rotated = await call('SA1.admin', 'POST', `${tokensOf(w.id('SA1'))}/${own.token.id}/rotate`);
    expect(rotated.body.error.code).toBe('step_up_required');
    expect((await call('SA1.admin', 'POST', '/api/auth/step-up', { method: 'password', password: PASSWORD })).status).toBe(200);
    expect((await call('SA1.admin', 'POST', tokensOf(w.id('SA1')), { name: 'Later' })).status).toBe(201);
  });
});

describe('a token', () => {
  it('is shown once: only its SHA-256 and its 13-character prefix are kept, and the list never shows the secret', async () => {
    const made = await make('T1.admin', w.id('T1'), 'Entra');
    expect(made.secret).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
    expect(made.token.prefix).toBe(made.secret.slice(0, 13));
    expect(made.base_url).toBe('http://console.test/scim/v2');
    expect(made.token.created_by).toMatchObject({ email: w.world.users['T1.admin'] });
    const row = await db().selectFrom('scim_tokens').selectAll().where('id', '=', made.token.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash('sha256').update(made.secret).digest('hex'));
    const list = await call('T1.admin', 'GET', tokensOf(w.id('T1')));
    expect(list.status).toBe(200);
    expect(scimTokenListSchema.parse(list.body).items.map((t) => t.id)).toContain(made.token.id);
    expect(JSON.stringify(list.body)).not.toContain(made.secret);
    const audit = await db().selectFrom('audit_log').select(['actor_user_id', 'details']).where('target_id', '=', made.token.id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toEqual({ name: 'Entra', prefix: made.token.prefix });
    expect(JSON.stringify(audit)).not.toContain(made.secret.slice(13));
  });

  it(`is one of at most ${IDENTITY.maxScimTokens} live tokens of an organization (422); a revoked one frees a place`, async () => {
    const org = w.id('A2');
    // The fixture world has no admin of A2.
    await insertUser(db(), { email: 'admin@a2.test', password: PASSWORD, role: 'agency_admin', organizationId: org });
    const made = [];
    for (let i = 0; i < IDENTITY.maxScimTokens; i++) made.push(await make('admin@a2.test', org, `Token ${i}`));
    const refused = await call('admin@a2.test', 'POST', tokensOf(org), { name: 'One too many' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe(m.tooManyScimTokens(IDENTITY.maxScimTokens));
    expect((await call('admin@a2.test', 'DELETE', `${tokensOf(org)}/${made[0]!.token.id}`)).status).toBe(200);
    await make('admin@a2.test', org, 'Replacement');
    expect((await call('admin@a2.test', 'POST', tokensOf(org), { name: '' })).status).toBe(400);
  });

  it('stays within the limit when admins make tokens at the same moment', async () => {
    const org = w.id('A3');
    await insertUser(db(), { email: 'admin@a3.test', password: PASSWORD, role: 'agency_admin', organizationId: org });
    const answers = await Promise.all(
      Array.from({ length: IDENTITY.maxScimTokens + 3 }, (_, i) => call('admin@a3.test', 'POST', tokensOf(org), { name: `Race ${i}` })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(IDENTITY.maxScimTokens);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(3);
    const live = await db()
      .selectFrom('scim_tokens')
      .select('id')
      .where('organization_id', '=', org)
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toHaveLength(IDENTITY.maxScimTokens);
  });

  it('rotates: a new secret and prefix, the old secret stops at once, rotated_at is set; a revoked token cannot be rotated', async () => {
    const made = await make('A1.admin', w.id('A1'), 'Rotated');
    const rotated = await call('A1.admin', 'POST', `${tokensOf(w.id('A1'))}/${made.token.id}/rotate`);
    expect(rotated.status).toBe(200);
    const issued = createdScimTokenSchema.parse(rotated.body);
    expect(issued.secret).not.toBe(made.secret);
    expect(issued.token.prefix).toBe(issued.secret.slice(0, 13));
    expect(issued.token.rotated_at).not.toBeNull();
    expect(await scimStatus(made.secret)).toBe(401);
    expect(await scimStatus(issued.secret)).toBe(200);
    const audit = await db()
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'scim.token_rotated')
      .where('target_id', '=', made.token.id)
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ name: 'Rotated', prefix: issued.token.prefix, previous_prefix: made.token.prefix });

    const revoked = await call('A1.admin', 'DELETE', `${tokensOf(w.id('A1'))}/${made.token.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    expect(await scimStatus(issued.secret)).toBe(401);
    expect((await call('A1.admin', 'DELETE', `${tokensOf(w.id('A1'))}/${made.token.id}`)).status).toBe(200);
    const rows = await db()
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'scim.token_revoked')
      .where('target_id', '=', made.token.id)
      .execute();
    expect(rows.map((r) => r.details)).toEqual([{ name: 'Rotated', prefix: issued.token.prefix }]);
    const again = await call('A1.admin', 'POST', `${tokensOf(w.id('A1'))}/${made.token.id}/rotate`);
    expect(again.status).toBe(422);
    expect(again.body.error.message).toBe(m.scimTokenRevoked);
  });

  it("is 404 through another organization's path", async () => {
    const tenant = await make('T1.admin', w.id('T1'), 'Tenant token');
    expect((await call('A1.admin', 'DELETE', `${tokensOf(w.id('A1'))}/${tenant.token.id}`)).status).toBe(404);
    expect((await call('A1.admin', 'POST', `${tokensOf(w.id('A1'))}/${tenant.token.id}/rotate`)).status).toBe(404);
    expect(await scimStatus(tenant.secret)).toBe(200);
  });

  it("appears in the activity log as its maker's action, by name", async () => {
    const made = await make('A1.admin', w.id('A1'), 'Logged');
    const log = await call(
      'A1.admin',
      'GET',
      `/api/activity?organization_id=${w.id('A1')}&include_subtree=false&action=scim.token_created`,
    );
    expect(log.status).toBe(200);
    const event = (log.body.events as { target_id: string; sentence: string; actor: { kind: string } }[]).find(
      (e) => e.target_id === made.token.id,
    )!;
    expect(event.actor.kind).toBe('user');
    expect(event.sentence).toMatch(/ created the SCIM token "Logged"$/);
    const calls = await call('A1.admin', 'GET', `/api/organizations/${w.id('A1')}/scim-calls`);
    expect(scimCallListSchema.parse(calls.body).items.length).toBeLessThanOrEqual(IDENTITY.callsShown);
  });
});
