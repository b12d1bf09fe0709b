import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../test/harness.ts';

/**
 * A sample of the authorization matrix with its answers written by hand, as a person reads
 * the role table, not computed from the permission table the server also uses (which the
 * full matrix does): so a wrong entry in that table fails here.
 *
 * The role table as read for these cells:
 * - admin: everything, in its own organization and below; credits enter (adjustments), usage
 *   imports, the outbox and the agent catalog only at the house; the debug checks in every
 *   type but tenants; API keys and the low-balance threshold of its own organization only.
 * - manager: lists and reads organizations and people, edits its own organization and direct
 *   children, invites people; views resources and billing. No credits, deletions, limits,
 *   keys, agents or roles.
 * - user: reads people, edits itself, views resources and billing; reads its own
 *   organization (what those pages show), not the organization list nor another one.
 * - support: read-only: organizations, people, resources, billing.
 * Something outside the caller's subtree is not found (404).
 */
const w = useWorld();

type Who = `${'H' | 'SA1' | 'A1' | 'T1'}.${'admin' | 'manager' | 'user' | 'support'}`;
interface Cell {
  who: Who;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: () => string;
  body?: () => unknown;
  status: number;
}

const org = (key: 'H' | 'SA1' | 'A1' | 'T1' | 'T2') => w.id(key);
const userIds: Record<string, string> = {};
const now = () => new Date().toISOString();
let n = 0;
const unique = () => `${Date.now().toString(36)}${++n}`;

/** Reads, then refused writes, then allowed writes (which change what later cells could see). */
const CELLS: Cell[] = [
  // Reads.
  { who: 'H.support', method: 'GET', path: () => `/api/organizations?organization_id=${org('H')}`, status: 200 },
  { who: 'T1.user', method: 'GET', path: () => `/api/organizations?organization_id=${org('T1')}`, status: 403 },
  { who: 'A1.manager', method: 'GET', path: () => `/api/organizations/${org('T1')}`, status: 200 },
  { who: 'T1.user', method: 'GET', path: () => `/api/organizations/${org('T1')}`, status: 200 },
  { who: 'A1.user', method: 'GET', path: () => `/api/organizations/${org('T1')}`, status: 403 },
  { who: 'A1.admin', method: 'GET', path: () => `/api/organizations/${org('SA1')}`, status: 404 },
  { who: 'T1.user', method: 'GET', path: () => `/api/organizations/${org('T1')}/billing`, status: 200 },
  { who: 'T1.user', method: 'GET', path: () => `/api/organizations/${org('T1')}/agents`, status: 200 },
  { who: 'SA1.support', method: 'GET', path: () => `/api/credits/ledger?organization_id=${org('SA1')}`, status: 200 },
  { who: 'A1.support', method: 'GET', path: () => `/api/credits/ledger/export?organization_id=${org('A1')}`, status: 200 },
  { who: 'SA1.user', method: 'GET', path: () => `/api/users?organization_id=${org('SA1')}`, status: 403 },
  { who: 'SA1.support', method: 'GET', path: () => `/api/users?organization_id=${org('A1')}`, status: 200 },
  { who: 'A1.user', method: 'GET', path: () => `/api/users/${userIds['A1.admin']}`, status: 200 },
  { who: 'H.admin', method: 'GET', path: () => '/api/debug/outbox', status: 200 },
  { who: 'H.user', method: 'GET', path: () => '/api/debug/outbox', status: 403 },
  { who: 'SA1.admin', method: 'GET', path: () => '/api/debug/outbox', status: 403 },
  { who: 'A1.admin', method: 'GET', path: () => `/api/organizations/${org('A1')}/api-keys`, status: 200 },
  { who: 'A1.manager', method: 'GET', path: () => `/api/organizations/${org('A1')}/api-keys`, status: 403 },
  { who: 'A1.admin', method: 'GET', path: () => `/api/organizations/${org('A1')}/verify-children`, status: 200 },
  { who: 'A1.manager', method: 'GET', path: () => `/api/organizations/${org('A1')}/verify-children`, status: 403 },
  { who: 'T1.admin', method: 'GET', path: () => `/api/organizations/${org('T1')}/verify-children`, status: 403 },

  // Refused writes.
  {
    who: 'A1.manager',
    method: 'POST',
    path: () => '/api/credits/allocations',
    body: () => ({ from_org_id: org('A1'), to_org_id: org('T1'), amount: '1.00' }),
    status: 403,
  },
  {
    who: 'H.manager',
    method: 'POST',
    path: () => '/api/credits/adjustments',
    body: () => ({ direction: 'increase', amount: '1', reason: 'hand check' }),
    status: 403,
  },
  {
    who: 'SA1.admin',
    method: 'POST',
    path: () => '/api/credits/adjustments',
    body: () => ({ organization_id: org('SA1'), direction: 'increase', amount: '1', reason: 'hand check' }),
    status: 403,
  },
  {
    who: 'H.manager',
    method: 'POST',
    path: () => '/api/credits/usage',
    body: () => ({ events: [{ id: `hand-${unique()}`, organization_id: org('T1'), agent: 'hand-agent', units: '1', occurred_at: now() }] }),
    status: 403,
  },
  {
    who: 'SA1.support',
    method: 'PATCH',
    path: () => `/api/organizations/${org('SA1')}`,
    body: () => ({ description: 'hand check' }),
    status: 403,
  },
  {
    who: 'T1.user',
    method: 'PATCH',
    path: () => `/api/organizations/${org('T1')}`,
    body: () => ({ description: 'hand check' }),
    status: 403,
  },
  { who: 'A1.manager', method: 'DELETE', path: () => `/api/organizations/${org('T2')}`, status: 403 },
  { who: 'A1.user', method: 'POST', path: () => '/api/invitations', body: () => invitation(), status: 403 },
  { who: 'A1.support', method: 'POST', path: () => '/api/invitations', body: () => invitation(), status: 403 },
  {
    who: 'T1.manager',
    method: 'PUT',
    path: () => `/api/organizations/${org('T1')}/agent-limit`,
    body: () => ({ activated_agent_limit: 0 }),
    status: 403,
  },
  {
    who: 'A1.support',
    method: 'POST',
    path: () => '/api/organizations',
    body: () => ({ name: `Hand ${unique()}`, org_type: 'tenant' }),
    status: 403,
  },
  {
    who: 'T1.admin',
    method: 'POST',
    path: () => '/api/organizations',
    body: () => ({ name: `Hand ${unique()}`, org_type: 'tenant' }),
    status: 403,
  },
  { who: 'H.user', method: 'POST', path: () => '/api/agent-types', body: () => agentType(), status: 403 },
  {
    who: 'A1.manager',
    method: 'POST',
    path: () => `/api/organizations/${org('A1')}/api-keys`,
    body: () => ({ name: 'Hand', scopes: ['usage:write'] }),
    status: 403,
  },
  {
    who: 'A1.manager',
    method: 'POST',
    path: () => `/api/organizations/${org('A1')}/agents`,
    body: () => ({ agent_type_id: '00000000-0000-4000-8000-00000000b001' }),
    status: 403,
  },
  {
    who: 'T1.manager',
    method: 'PUT',
    path: () => `/api/organizations/${org('T1')}/low-balance-threshold`,
    body: () => ({ low_balance_threshold: '50' }),
    status: 403,
  },
  {
    who: 'SA1.manager',
    method: 'PUT',
    path: () => `/api/users/${userIds['A1.user']}/role`,
    body: () => ({ role: 'agency_support' }),
    status: 403,
  },

  // Allowed writes.
  {
    who: 'H.admin',
    method: 'POST',
    path: () => '/api/credits/adjustments',
    body: () => ({ direction: 'increase', amount: '10', reason: 'hand check' }),
    status: 200,
  },
  {
    who: 'H.admin',
    method: 'POST',
    path: () => '/api/credits/allocations',
    body: () => ({ from_org_id: org('H'), to_org_id: org('SA1'), amount: '1.00' }),
    status: 200,
  },
  {
    who: 'A1.manager',
    method: 'PATCH',
    path: () => `/api/organizations/${org('T1')}`,
    body: () => ({ description: 'hand check' }),
    status: 200,
  },
  { who: 'A1.manager', method: 'POST', path: () => '/api/invitations', body: () => invitation(), status: 201 },
  {
    who: 'A1.admin',
    method: 'PUT',
    path: () => `/api/organizations/${org('T1')}/agent-limit`,
    body: () => ({ activated_agent_limit: 0 }),
    status: 200,
  },
  // Allowed, then refused by a rule: the tenant still has active people.
  { who: 'A1.admin', method: 'DELETE', path: () => `/api/organizations/${org('T1')}`, status: 422 },
  {
    who: 'A1.admin',
    method: 'POST',
    path: () => `/api/organizations/${org('A1')}/api-keys`,
    body: () => ({ name: 'Hand', scopes: ['usage:write'] }),
    status: 201,
  },
  {
    who: 'T1.admin',
    method: 'PUT',
    path: () => `/api/organizations/${org('T1')}/low-balance-threshold`,
    body: () => ({ low_balance_threshold: '50' }),
    status: 200,
  },
  { who: 'H.admin', method: 'POST', path: () => '/api/agent-types', body: () => agentType(), status: 201 },
  {
    who: 'A1.admin',
    method: 'POST',
    path: () => '/api/organizations',
    body: () => ({ name: `Hand ${unique()}`, org_type: 'tenant' }),
    status: 201,
  },
  {
    who: 'SA1.admin',
    method: 'PUT',
    path: () => `/api/users/${userIds['A1.user']}/role`,
    body: () => ({ role: 'agency_support' }),
    status: 200,
  },
];

function invitation() {
  return {
    email: `hand-${unique()}@sample.test`,
    first_name: 'Hand',
    last_name: 'Written',
    role: 'tenant_user',
    organization_id: org('T1'),
  };
}
function agentType() {
  return { code: `hand-${unique()}`, name: `Hand ${unique()}`, kind: 'other', unit: 'run', price: '0.01' };
}

beforeAll(async () => {
  for (const who of ['A1.admin', 'A1.user']) {
    const row = await w.t.database.db.selectFrom('users').select('id').where('email', '=', w.world.users[who]!).executeTakeFirstOrThrow();
    userIds[who] = row.id;
  }
});

describe('a hand-written sample of the authorization matrix', () => {
  it(`answers each of its ${CELLS.length} cells as written`, async () => {
    const wrong: string[] = [];
    for (const cell of CELLS) {
      const response = await w.t.request(cell.method, cell.path(), cell.body?.(), { token: await w.as(cell.who) });
      if (response.status !== cell.status) {
        wrong.push(
          `${cell.who} ${cell.method} ${cell.path()}: expected ${cell.status}, got ${response.status} ${JSON.stringify(response.body).slice(0, 160)}`,
        );
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
