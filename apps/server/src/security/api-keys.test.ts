/**
 * API keys: the secret is answered once and stored nowhere, not in any table, not in the
 * audit log, not in the log; only its SHA-256 is kept, with a visible prefix. Only the
 * organization's own admins make, list and revoke its keys, and a revoked key stops at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { PASSWORD, houseId, insertOrg, insertUser } from '../test/fixtures.ts';
import { hashKey, verifyKey, type VerifiedKey } from '../lib/api-key.ts';
import { createLoggedApp, type LoggedApp } from './logged-app.ts';

let app: LoggedApp;
const tokens: Record<string, string> = {};
const orgs = { H: '', SA: '', A: '', T: '' };

async function api(who: string | null, method: string, path: string, body?: unknown) {
  const token = who ? tokens[who] : undefined;
  const response = await fetch(app.baseUrl + path, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...(token && { authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Every table of the database whose rows, as text, contain the value. */
async function tablesHolding(value: string): Promise<string[]> {
  const { rows } = await sql<{
    table_name: string;
  }>`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(app.database.db);
  const holding: string[] = [];
  for (const { table_name } of rows) {
    const found = await sql<{
      n: number;
    }>`select count(*)::int as n from ${sql.table(table_name)} x where strpos(x::text, ${value}) > 0`.execute(app.database.db);
    if (found.rows[0]!.n > 0) holding.push(table_name);
  }
  return holding;
}

beforeAll(async () => {
  app = await createLoggedApp();
  const db = app.database.db;
  orgs.H = await houseId(db);
  orgs.SA = (await insertOrg(db, { name: 'Keys Super', type: 'super_agency', parentId: orgs.H })).id;
  orgs.A = (await insertOrg(db, { name: 'Keys Agency', type: 'agency', parentId: orgs.SA })).id;
  orgs.T = (await insertOrg(db, { name: 'Keys Tenant', type: 'tenant', parentId: orgs.A })).id;
  const people = {
    'SA.admin': ['super_agency_admin', orgs.SA],
    'A.admin': ['agency_admin', orgs.A],
    'A.manager': ['agency_manager', orgs.A],
    'A.support': ['agency_support', orgs.A],
    'T.admin': ['tenant_admin', orgs.T],
  } as const;
  for (const [who, [role, organizationId]] of Object.entries(people)) {
    const email = `${who.replace('.', '-').toLowerCase()}@keys.test`;
    await insertUser(db, { email, password: PASSWORD, role, organizationId });
    tokens[who] = await app.signIn(email, PASSWORD);
  }
});
afterAll(async () => {
  await app?.close();
});

describe('API keys', () => {
  let secret: string;
  let keyId: string;

  it('answers the whole secret once, stores only its SHA-256 and prefix, and never lists, audits or logs it', async () => {
    const created = await api('A.admin', 'POST', `/api/organizations/${orgs.A}/api-keys`, {
      name: 'Runtime',
      scopes: ['usage:write', 'agents:report', 'usage:write'],
    });
    expect(created.status).toBe(201);
    secret = created.body.secret;
    keyId = created.body.api_key.id;
    expect(secret).toMatch(/^oc_[0-9a-f]{8}_[0-9a-f]{64}$/);
    expect(created.body.api_key).toMatchObject({
      organization_id: orgs.A,
      name: 'Runtime',
      prefix: secret.slice(0, 11),
      scopes: ['usage:write', 'agents:report'],
      created_by: { name: 'Test User', email: 'a-admin@keys.test' },
      last_used_at: null,
      use_count: 0,
      revoked_at: null,
      state: 'live',
      expires_at: null,
      previous_prefix: null,
      previous_expires_at: null,
      rolled_at: null,
      rate_limit_per_minute: null,
    });
    const row = await app.database.db
      .selectFrom('api_keys')
      .select(['secret_hash', 'prefix'])
      .where('id', '=', keyId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ secret_hash: hashKey(secret), prefix: secret.slice(0, 11) });
    // The part after the prefix is the secret proper: nowhere in the database, the answer of the list, or the log.
    const hidden = secret.slice(12);
    expect(await tablesHolding(hidden)).toEqual([]);
    const list = await api('A.admin', 'GET', `/api/organizations/${orgs.A}/api-keys`);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(hidden);
    expect(list.body.api_keys.map((k: { id: string }) => k.id)).toEqual([keyId]);
    const audit = await app.database.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'api_key.create')
      .where('target_id', '=', keyId)
      .executeTakeFirstOrThrow();
    expect(audit.details).toEqual({ name: 'Runtime', prefix: secret.slice(0, 11), scopes: ['usage:write', 'agents:report'] });
    expect(app.logText()).not.toContain(hidden);
  });

  it('makes a distinct secret and prefix every time', async () => {
    const made = [];
    for (let i = 0; i < 10; i++)
      made.push(
        (await api('A.admin', 'POST', `/api/organizations/${orgs.A}/api-keys`, { name: `Key ${i}`, scopes: ['entitlements:read'] })).body,
      );
    expect(new Set(made.map((m) => m.secret)).size).toBe(10);
    expect(new Set(made.map((m) => m.api_key.prefix)).size).toBe(10);
    const list = await api('A.admin', 'GET', `/api/organizations/${orgs.A}/api-keys`);
    expect(list.body.api_keys).toHaveLength(11);
    expect(list.body.api_keys[0].name).toBe('Key 9');
  });

  it("refuses everyone but the organization's own admins, changing nothing", async () => {
    const count = () => app.database.db.selectFrom('api_keys').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const before = await count();
    const body = { name: 'Nope', scopes: ['usage:write'] };
    const cases: [string | null, string, number][] = [
      [null, orgs.A, 401],
      ['SA.admin', orgs.A, 403],
      ['A.manager', orgs.A, 403],
      ['A.support', orgs.A, 403],
      ['A.admin', orgs.T, 403],
      ['T.admin', orgs.A, 404],
      ['A.admin', orgs.SA, 404],
    ];
    for (const [who, org, status] of cases) {
      expect((await api(who, 'POST', `/api/organizations/${org}/api-keys`, body)).status, `${who} create in ${org}`).toBe(status);
      expect((await api(who, 'GET', `/api/organizations/${org}/api-keys`)).status, `${who} list of ${org}`).toBe(status);
      expect((await api(who, 'DELETE', `/api/organizations/${org}/api-keys/${keyId}`)).status, `${who} revoke in ${org}`).toBe(status);
    }
    const refused = await api('SA.admin', 'POST', `/api/organizations/${orgs.A}/api-keys`, body);
    expect(refused.body.error.message).toBe(MESSAGES.apiKeys.onlyOwnAdmins);
    for (const bad of [{ name: '', scopes: ['usage:write'] }, { name: 'x', scopes: [] }, { name: 'x', scopes: ['admin'] }, { name: 'x' }]) {
      expect((await api('A.admin', 'POST', `/api/organizations/${orgs.A}/api-keys`, bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await count()).n).toBe(before.n);
  });

  it('revokes a key of the own organization only: it stops at once, revoking again changes nothing', async () => {
    expect(((await verifyKey(app.database.db, secret)) as VerifiedKey).id).toBe(keyId);
    const tenantKey = await api('T.admin', 'POST', `/api/organizations/${orgs.T}/api-keys`, { name: 'Tenant', scopes: ['usage:write'] });
    // A key of another organization, named under the own one's path.
    expect((await api('A.admin', 'DELETE', `/api/organizations/${orgs.A}/api-keys/${tenantKey.body.api_key.id}`)).status).toBe(404);
    expect((await api('A.admin', 'DELETE', `/api/organizations/${orgs.A}/api-keys/${crypto.randomUUID()}`)).status).toBe(404);
    const revoked = await api('A.admin', 'DELETE', `/api/organizations/${orgs.A}/api-keys/${keyId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.api_key.revoked_at).not.toBeNull();
    expect(await verifyKey(app.database.db, secret)).toMatchObject({ refused: 'revoked' });
    expect(((await verifyKey(app.database.db, tenantKey.body.secret)) as VerifiedKey).organization.id).toBe(orgs.T);
    const again = await api('A.admin', 'DELETE', `/api/organizations/${orgs.A}/api-keys/${keyId}`);
    expect(again.status).toBe(200);
    expect(again.body.api_key.revoked_at).toBe(revoked.body.api_key.revoked_at);
    const audits = await app.database.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'api_key.revoke')
      .where('target_id', '=', keyId)
      .execute();
    expect(audits).toEqual([{ details: { prefix: secret.slice(0, 11) } }]);
  });

  it("a suspended organization's admins still list their keys but make and revoke none", async () => {
    await app.database.db.updateTable('organizations').set({ status: 'suspended' }).where('id', '=', orgs.T).execute();
    try {
      expect((await api('T.admin', 'GET', `/api/organizations/${orgs.T}/api-keys`)).status).toBe(200);
      const made = await api('T.admin', 'POST', `/api/organizations/${orgs.T}/api-keys`, { name: 'Frozen', scopes: ['usage:write'] });
      expect(made.status).toBe(403);
      expect(made.body.error.code).toBe('organization_suspended');
    } finally {
      await app.database.db.updateTable('organizations').set({ status: 'active' }).where('id', '=', orgs.T).execute();
    }
  });
});
