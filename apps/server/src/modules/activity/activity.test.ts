import { beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEvent, ActivityPage, LedgerPage } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';

/**
 * The activity log and the ledger's actors through real HTTP: who moved credits two levels
 * down, seen by the house admin, and a tenant admin who sees its own organization only.
 */
const w = useWorld();

async function get<T>(who: string, path: string) {
  return w.t.request<T>('GET', path, undefined, { token: await w.as(who) });
}
const events = async (who: string, query = '') => {
  const response = await get<ActivityPage>(who, `/api/activity${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.events;
};
const sentences = (list: ActivityEvent[]) => list.map((e) => e.sentence);

beforeAll(async () => {
  const allocate = async (who: string, from: string, to: string, amount: string, notes?: string) => {
    const response = await w.t.request(
      'POST',
      '/api/credits/allocations',
      { from_org_id: from, to_org_id: to, amount, notes },
      { token: await w.as(who) },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };
  await w.t.request(
    'POST',
    '/api/credits/adjustments',
    { direction: 'increase', amount: '1000', reason: 'Opening balance' },
    { token: await w.as('H.admin') },
  );
  await allocate('H.admin', w.id('H'), w.id('SA1'), '500');
  await allocate('SA1.admin', w.id('SA1'), w.id('A1'), '200', 'spring campaign');
  await allocate('A1.admin', w.id('A1'), w.id('T1'), '50', 'pilot');
  // A failed sign-in of the tenant's admin, and one of an e-mail nobody has.
  expect((await w.t.request('POST', '/api/auth/sign-in', { email: 'admin@t1.test', password: 'wrong-password' })).status).toBe(401);
  expect((await w.t.request('POST', '/api/auth/sign-in', { email: 'nobody@nowhere.test', password: 'wrong-password' })).status).toBe(401);
  await w.as('T1.admin');
});

describe('GET /api/activity', () => {
  it('shows the house admin who allocated two levels down, when, from where, in a sentence', async () => {
    const list = await events('H.admin', '?action=credits.allocate');
    const down = list.find((e) => e.organization?.id === w.id('A1'))!;
    expect(down).toMatchObject({
      action: 'credits.allocate',
      actor: { kind: 'user', name: 'Test User', email: 'admin@a1.test' },
      organization: { id: w.id('A1'), name: 'Agency One' },
      sentence: 'Test User allocated 50.00 credits to Tenant One (pilot)',
      ip: '127.0.0.1',
    });
    expect(Date.parse(down.created_at)).toBeGreaterThan(Date.now() - 60_000);
    // Newest first: A1's allocation, then SA1's, then the house's.
    expect(list.map((e) => e.organization?.id)).toEqual([w.id('A1'), w.id('SA1'), w.id('H')]);
  });

  it('records sign-ins and failed sign-ins in the account organization, naming nobody for a failure', async () => {
    const list = await events('T1.admin');
    expect(sentences(list)).toContain('Failed sign-in for admin@t1.test');
    expect(sentences(list)).toContain('Test User signed in');
    const failed = list.find((e) => e.action === 'auth.sign_in_failed')!;
    expect(failed.actor).toEqual({ kind: 'system', id: null, name: null, email: null });
    // The unknown e-mail belongs to no organization, so nobody's log shows it.
    expect(JSON.stringify(await events('H.admin'))).not.toContain('nobody@nowhere.test');
  });

  it('a tenant admin sees its own organization only, nothing of its parent', async () => {
    const list = await events('T1.admin');
    expect(list.length).toBeGreaterThan(0);
    expect(new Set(list.map((e) => e.organization?.id))).toEqual(new Set([w.id('T1')]));
    expect((await get('T1.admin', `/api/activity?organization_id=${w.id('A1')}`)).status).toBe(404);
    expect((await get('T1.admin', `/api/activity/export?organization_id=${w.id('A1')}`)).status).toBe(404);
  });

  it('filters by organization alone or with its subtree, actor, action and dates', async () => {
    const alone = await events('H.admin', `?organization_id=${w.id('SA1')}&include_subtree=false`);
    expect(new Set(alone.map((e) => e.organization?.id))).toEqual(new Set([w.id('SA1')]));
    const subtree = await events('H.admin', `?organization_id=${w.id('SA1')}`);
    expect(new Set(subtree.map((e) => e.organization?.id))).toEqual(new Set([w.id('SA1'), w.id('A1'), w.id('T1')]));
    const actorId = (await w.t.database.db.selectFrom('users').select('id').where('email', '=', 'admin@sa1.test').executeTakeFirstOrThrow())
      .id;
    const byActor = await events('H.admin', `?actor_user_id=${actorId}`);
    expect(byActor.length).toBeGreaterThan(0);
    expect(byActor.every((e) => e.actor.id === actorId)).toBe(true);
    expect(await events('H.admin', '?to=2001-01-01')).toEqual([]);
    const today = await events('H.admin', `?from=${new Date().toISOString().slice(0, 10)}&action=credits.adjust_increase`);
    expect(today).toHaveLength(1);
    expect(today[0]!.sentence).toMatch(/^Test User added 1,000\.00 credits to .+: Opening balance$/);
    expect((await get('H.admin', '/api/activity?action=nope')).status).toBe(400);
  });

  it('pages newest first with a cursor, and refuses a malformed one', async () => {
    const all = await events('H.admin', '?limit=100');
    const first = await get<ActivityPage>('H.admin', '/api/activity?limit=2');
    expect(first.body.events.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    const second = await get<ActivityPage>('H.admin', `/api/activity?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.events.map((e) => e.id)).toEqual(all.slice(2, 4).map((e) => e.id));
    expect((await get('H.admin', '/api/activity?cursor=abc')).status).toBe(400);
  });

  it.each(['A1.manager', 'A1.user', 'A1.support', 'T1.user'])('%s may not read it (403)', async (who) => {
    expect((await get(who, '/api/activity')).status).toBe(403);
    expect((await get(who, '/api/activity/export')).status).toBe(403);
  });

  it('exports the filtered events as CSV, streamed', async () => {
    const response = await fetch(`${w.t.baseUrl}/api/activity/export?action=credits.allocate`, {
      headers: { authorization: `Bearer ${await w.as('H.admin')}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    const lines = (await response.text()).trim().split('\r\n');
    expect(lines[0]).toBe('created_at,actor,actor_email,action,description,organization,organization_id,ip,id');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain('admin@a1.test,credits.allocate,Test User allocated 50.00 credits to Tenant One (pilot),Agency One');
  });
});

describe('the ledger says who and with whom', () => {
  it("the house admin opens the tenant's ledger: the actor, the other side by name and in scope, a sentence", async () => {
    const response = await get<LedgerPage>('H.admin', `/api/credits/ledger?organization_id=${w.id('T1')}`);
    expect(response.status).toBe(200);
    expect(response.body.entries[0]).toMatchObject({
      entry_type: 'allocation_received',
      actor: { name: 'Test User', email: 'admin@a1.test' },
      counterparty: { id: w.id('A1'), name: 'Agency One', in_scope: true },
      description: 'Received 50.00 credits from Agency One, allocated by Test User: pilot',
    });
  });

  it("the tenant's own admin sees the parent by name, out of scope", async () => {
    const response = await get<LedgerPage>('T1.admin', '/api/credits/ledger');
    expect(response.body.entries[0]!.counterparty).toEqual({ id: w.id('A1'), name: 'Agency One', in_scope: false });
  });

  it('searches the notes and names (q), within the other filters', async () => {
    const hit = await get<LedgerPage>('H.admin', `/api/credits/ledger?organization_id=${w.id('A1')}&q=SPRING`);
    expect(hit.body.entries.map((e) => e.entry_type)).toEqual(['allocation_received']);
    const names = await get<LedgerPage>('H.admin', `/api/credits/ledger?organization_id=${w.id('A1')}&q=tenant%20one`);
    expect(names.body.entries.map((e) => e.entry_type)).toEqual(['allocation_sent']);
    const wildcard = await get<LedgerPage>('H.admin', `/api/credits/ledger?organization_id=${w.id('A1')}&q=%25`);
    expect(wildcard.body.entries).toEqual([]);
  });

  it('the CSV gains the actor and the other organization', async () => {
    const response = await fetch(`${w.t.baseUrl}/api/credits/ledger/export?organization_id=${w.id('A1')}`, {
      headers: { authorization: `Bearer ${await w.as('SA1.admin')}` },
    });
    const [header, ...rows] = (await response.text()).trim().split('\r\n');
    expect(header).toContain('description,actor,actor_email,counterparty,counterparty_org_id');
    expect(rows.find((row) => row.includes('allocation_sent'))).toContain(
      `Test User allocated 50.00 credits to Tenant One: pilot,Test User,admin@a1.test,Tenant One,${w.id('T1')}`,
    );
  });
});

describe('deleted, suspended and deactivated', () => {
  it('a deleted organization answers 404', async () => {
    await w.t.database.db.updateTable('organizations').set({ deleted_at: new Date() }).where('id', '=', w.id('A2')).execute();
    expect((await get('H.admin', `/api/activity?organization_id=${w.id('A2')}`)).status).toBe(404);
  });

  it('a deactivated admin is refused (401)', async () => {
    await insertUser(w.t.database.db, { email: 'gone@a1.test', password: PASSWORD, role: 'agency_admin', organizationId: w.id('A1') });
    const token = await w.as('gone@a1.test');
    expect((await w.t.request('GET', '/api/activity', undefined, { token })).status).toBe(200);
    await w.t.database.db.updateTable('users').set({ status: 'inactive' }).where('email', '=', 'gone@a1.test').execute();
    expect((await w.t.request('GET', '/api/activity', undefined, { token })).status).toBe(401);
  });

  it("a suspended organization's admin still reads its activity", async () => {
    await w.t.database.db.updateTable('organizations').set({ status: 'suspended' }).where('id', '=', w.id('T1')).execute();
    expect((await events('T1.admin')).length).toBeGreaterThan(0);
  });
});
