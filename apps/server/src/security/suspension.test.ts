import { randomBytes } from 'node:crypto';
import { describe, expect, it, beforeAll } from 'vitest';
import { API, MESSAGES, type Endpoint, type OrgType, type Role } from '@console/domain';
import { useWorld, type ApiResponse } from '../test/harness.ts';
import { PASSWORD, insertUser, tablesDigest } from '../test/fixtures.ts';
import { hashToken } from '../lib/secrets.ts';
import { MATRIX, isPublic, type CallerInfo, type Target, type TargetKind } from './matrix-table.ts';

/**
 * A suspended or inactive organization, and every organization below it, is frozen: its
 * people sign in and read, but every session route that changes something answers 403
 * (`organization_suspended` or `organization_inactive`) and changes nothing. Only the
 * admins of an organization's parent change its status; a house keeps its status.
 * The write routes come from the app's route table, with bodies from the authorization
 * matrix, so a new write route is covered without a change here.
 */
const w = useWorld();
const db = () => w.t.database.db;

const TYPES = { H: 'house', SA1: 'super_agency', A1: 'agency', T1: 'tenant' } as const;
type Home = keyof typeof TYPES;
const CHILD: Record<Home, Home | null> = { H: 'SA1', SA1: 'A1', A1: 'T1', T1: null };

/** What a write may change. */
const fingerprint = () =>
  tablesDigest(db(), [
    'organizations',
    'organization_billing_settings',
    'users',
    'invitations',
    'credit_ledger_entries',
    'idempotency_keys',
    'one_time_tokens',
    'audit_log',
  ]);

const endpoints: Endpoint[] = Object.values(API).flatMap((group) => Object.values(group) as Endpoint[]);
const keyOf = (endpoint: Endpoint) => `${endpoint.method} /api${endpoint.path}`;
const sessionWrites = endpoints.filter((e) => e.auth === 'session' && e.method !== 'GET');
const sessionReads = endpoints.filter((e) => e.auth === 'session' && e.method === 'GET');

/** A plain user and a pending invitation in each home organization: the targets of user and invitation routes. */
const targetUsers = {} as Record<Home, string>;
const invitations = {} as Record<Home, string>;

function callerInfo(who: string): CallerInfo {
  const [home, level] = who.split('.') as [Home, string];
  const child = CHILD[home];
  return { role: `${TYPES[home]}_${level}` as Role, orgType: TYPES[home], orgId: w.id(home), childId: child ? w.id(child) : null };
}

function targetFor(kind: TargetKind | null, who: string): Target | null {
  const home = who.split('.')[0] as Home;
  const orgType: OrgType = TYPES[home];
  if (kind === 'org') return { id: w.id(home), orgType };
  if (kind === 'user') return { id: targetUsers[home], orgType };
  if (kind === 'invitation') return { id: invitations[home], orgType };
  return null;
}

/** The route called by `who` on a target of its own organization, with the matrix's body. */
async function send(endpoint: Endpoint, who: string, token?: string): Promise<ApiResponse> {
  const key = keyOf(endpoint);
  const entry = MATRIX[key];
  if (!entry || isPublic(entry)) throw new Error(`${key} has no session entry in the matrix`);
  const variant = entry.variants[0]!;
  const target = targetFor(variant.target, who);
  const url = `/api${endpoint.path}`.replace(':id', target?.id ?? '');
  const call = variant.call({ url, target, caller: callerInfo(who), unique: randomBytes(4).toString('hex') });
  return w.t.request(endpoint.method, call.path, call.body, { token: token ?? (await w.as(who)), headers: call.headers });
}

const setStatus = async (who: string, home: Home, status: string) =>
  w.t.request('PATCH', `/api/organizations/${w.id(home)}`, { status }, { token: await w.as(who) });

beforeAll(async () => {
  // Signed in up front: a sign-in writes last_login_at, which the fingerprints would see.
  for (const who of Object.keys(w.world.users)) await w.as(who);
  for (const home of Object.keys(TYPES) as Home[]) {
    targetUsers[home] = (
      await insertUser(db(), {
        email: `target@${home.toLowerCase()}.suspension.test`,
        password: PASSWORD,
        role: `${TYPES[home]}_user`,
        organizationId: w.id(home),
      })
    ).id;
    const invitation = await db()
      .insertInto('invitations')
      .values({
        token_hash: hashToken(randomBytes(32).toString('base64url')),
        email: `pending@${home.toLowerCase()}.suspension.test`,
        first_name: 'Pending',
        last_name: 'Invitee',
        role: `${TYPES[home]}_user`,
        organization_id: w.id(home),
        expires_at: new Date(Date.now() + 7 * 86_400_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    invitations[home] = invitation.id;
  }
  // Credits where allocations start, so that a refusal is not merely insufficient funds.
  await w.t.request(
    'POST',
    '/api/credits/adjustments',
    { direction: 'increase', amount: '100', reason: 'suspension suite' },
    { token: await w.as('H.admin') },
  );
  for (const [from, to] of [
    ['H', 'SA1'],
    ['SA1', 'A1'],
  ] as const) {
    const response = await w.t.request(
      'POST',
      '/api/credits/allocations',
      { from_org_id: w.id(from), to_org_id: w.id(to), amount: '10' },
      { token: await w.as(`${from}.admin`) },
    );
    expect(response.status).toBe(200);
  }
});

describe('changing an organization status', () => {
  it("is for the parent's admins only: not the organization's own admins or managers, not the parent's managers", async () => {
    const before = await fingerprint();
    for (const [who, home] of [
      ['SA1.admin', 'SA1'],
      ['SA1.manager', 'SA1'],
      ['A1.admin', 'A1'],
      ['SA1.manager', 'A1'],
      ['T1.admin', 'T1'],
    ] as const) {
      const response = await setStatus(who, home, 'suspended');
      expect(response.status, `${who} -> ${home}`).toBe(403);
      expect(response.body.error.message, `${who} -> ${home}`).toBe(MESSAGES.organizations.statusOnlyParentAdmins);
    }
    expect(await fingerprint()).toBe(before);
  });

  it('a house keeps its status, even for its own admins', async () => {
    const response = await setStatus('H.admin', 'H', 'inactive');
    expect(response.status).toBe(403);
    const house = await db().selectFrom('organizations').select('status').where('id', '=', w.id('H')).executeTakeFirstOrThrow();
    expect(house.status).toBe('active');
  });

  it('sending the status an organization already has is no change, and needs no right', async () => {
    const response = await w.t.request(
      'PATCH',
      `/api/organizations/${w.id('SA1')}`,
      { status: 'active', description: 'Same status' },
      { token: await w.as('SA1.admin') },
    );
    expect(response.status).toBe(200);
    expect(response.body.organization).toMatchObject({ status: 'active', description: 'Same status' });
  });

  it("the parent's admin suspends and reactivates a direct child", async () => {
    const suspended = await setStatus('SA1.admin', 'A1', 'suspended');
    expect(suspended.status).toBe(200);
    expect(suspended.body.organization.status).toBe('suspended');
    expect((await setStatus('SA1.admin', 'A1', 'active')).status).toBe(200);
  });
});

describe('a suspended organization and its subtree', () => {
  const frozenCallers = [
    ['SA1.admin', 'own'],
    ['SA1.user', 'own'],
    ['A1.admin', 'ancestor'],
    ['T1.admin', 'ancestor'],
  ] as const;
  /** Each read's status while the tree is active, to compare with the same read while it is frozen. */
  const readsWhileActive = new Map<string, number>();

  beforeAll(async () => {
    for (const endpoint of sessionReads) {
      for (const [who] of frozenCallers) readsWhileActive.set(`${who} ${keyOf(endpoint)}`, (await send(endpoint, who)).status);
    }
    const response = await setStatus('H.admin', 'SA1', 'suspended');
    expect(response.status).toBe(200);
  });

  it('covers every write route of the app', () => {
    const routes = w.t.app.routeTable.map((r) => `${r.method} ${r.url}`);
    const writes = sessionWrites.map(keyOf);
    expect(writes.length).toBeGreaterThan(10);
    expect(writes.filter((key) => !routes.includes(key))).toEqual([]);
    const writeRoutes = routes.filter((key) => !key.startsWith('GET '));
    const publicWrites = endpoints.filter((e) => e.auth === 'public').map(keyOf);
    // The machine API takes API keys: a frozen organization's keys are refused in machine-api.test.ts.
    const keyWrites = endpoints.filter((e) => e.auth === 'key').map(keyOf);
    expect(writeRoutes.filter((key) => !writes.includes(key) && !publicWrites.includes(key) && !keyWrites.includes(key))).toEqual([]);
  });

  it.each(frozenCallers)('%s (%s organization suspended): every write answers 403 and changes nothing', async (who, where) => {
    const failures: string[] = [];
    for (const endpoint of sessionWrites) {
      const before = await fingerprint();
      const response = await send(endpoint, who);
      const got = `${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;
      if (response.status !== 403) failures.push(`${keyOf(endpoint)}: expected 403, got ${got}`);
      else if (response.body.error.code !== 'organization_suspended') failures.push(`${keyOf(endpoint)}: code ${got}`);
      else if (response.body.error.message !== MESSAGES.organizations.frozen('suspended', where))
        failures.push(`${keyOf(endpoint)}: message ${got}`);
      if ((await fingerprint()) !== before) failures.push(`${keyOf(endpoint)}: a refused write changed data`);
    }
    expect(failures).toEqual([]);
  });

  it('reads answer as they did while active', async () => {
    const changed: string[] = [];
    for (const endpoint of sessionReads) {
      for (const [who] of frozenCallers) {
        const key = `${who} ${keyOf(endpoint)}`;
        const status = (await send(endpoint, who)).status;
        if (status !== readsWhileActive.get(key)) changed.push(`${key}: ${readsWhileActive.get(key)} -> ${status}`);
      }
    }
    expect(changed).toEqual([]);
    expect([...readsWhileActive.values()].filter((s) => s === 200).length).toBeGreaterThan(20);
  });

  it("a person's own profile names the standing above theirs, so the console can say why writes are refused", async () => {
    const below = await w.t.request('GET', '/api/users/me', undefined, { token: await w.as('A1.admin') });
    expect(below.body.organization).toMatchObject({ status: 'active', ancestor_status: 'suspended' });
    const own = await w.t.request('GET', '/api/users/me', undefined, { token: await w.as('SA1.admin') });
    expect(own.body.organization).toMatchObject({ status: 'suspended', ancestor_status: null });
  });

  it('its people still sign in, and change their own password', async () => {
    const signIn = await w.t.request('POST', '/api/auth/sign-in', { email: w.world.users['A1.manager'], password: PASSWORD });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.organization.status).toBe('active');
    const token = signIn.body.access_token;
    expect((await w.t.request('GET', '/api/users/me', undefined, { token })).status).toBe(200);
    expect(
      (await w.t.request('POST', '/api/auth/password', { password: 'a new password for A1', current_password: PASSWORD }, { token }))
        .status,
    ).toBe(200);
  });

  it('a suspended manager cannot set its own organization back to active', async () => {
    for (const who of ['SA1.admin', 'SA1.manager']) {
      const response = await setStatus(who, 'SA1', 'active');
      expect(response.status, who).toBe(403);
      expect(response.body.error.code, who).toBe('organization_suspended');
    }
    const row = await db().selectFrom('organizations').select('status').where('id', '=', w.id('SA1')).executeTakeFirstOrThrow();
    expect(row.status).toBe('suspended');
  });

  it('the parent keeps working on the suspended child: it may edit it, but allocates nothing to it', async () => {
    const token = await w.as('H.admin');
    const edited = await w.t.request('PATCH', `/api/organizations/${w.id('SA1')}`, { description: 'Under review' }, { token });
    expect(edited.status).toBe(200);
    const allocation = await w.t.request(
      'POST',
      '/api/credits/allocations',
      { from_org_id: w.id('H'), to_org_id: w.id('SA1'), amount: '1' },
      { token },
    );
    expect(allocation.status).toBe(422);
  });

  it("writes work again once the parent's admin reactivates it", async () => {
    expect((await setStatus('H.admin', 'SA1', 'active')).status).toBe(200);
    const response = await w.t.request(
      'PATCH',
      `/api/organizations/${w.id('A1')}`,
      { description: 'Back to work' },
      { token: await w.as('A1.admin') },
    );
    expect(response.status).toBe(200);
    const allocation = await w.t.request(
      'POST',
      '/api/credits/allocations',
      { from_org_id: w.id('A1'), to_org_id: w.id('T1'), amount: '1' },
      { token: await w.as('A1.admin') },
    );
    expect(allocation.status).toBe(200);
  });
});

describe('an inactive organization', () => {
  it('freezes its subtree the same way, and says it is inactive', async () => {
    expect((await setStatus('SA1.admin', 'A1', 'inactive')).status).toBe(200);
    const before = await fingerprint();
    const own = await w.t.request(
      'PATCH',
      `/api/organizations/${w.id('A1')}`,
      { description: 'Still here' },
      { token: await w.as('A1.admin') },
    );
    expect(own.status).toBe(403);
    expect(own.body.error).toMatchObject({ code: 'organization_inactive', message: MESSAGES.organizations.frozen('inactive', 'own') });
    const below = await w.t.request('PATCH', '/api/users/me', { first_name: 'Frozen' }, { token: await w.as('T1.user') });
    expect(below.status).toBe(403);
    expect(below.body.error).toMatchObject({
      code: 'organization_inactive',
      message: MESSAGES.organizations.frozen('inactive', 'ancestor'),
    });
    expect(await fingerprint()).toBe(before);
    const read = await w.t.request('GET', `/api/organizations/${w.id('T1')}`, undefined, { token: await w.as('A1.admin') });
    expect(read.status).toBe(200);
    expect((await setStatus('SA1.admin', 'A1', 'active')).status).toBe(200);
  });
});
