import { organizationsEndpoints, usersEndpoints } from '@console/domain';
import { describe, expect, it } from 'vitest';
import { call } from '@/lib/api';
import { assertNoContractProblems, contractProblemOf, endpointOf } from './contract-check';
import { json, mockApi } from './helpers';

const ORG = '00000000-0000-4000-8000-0000000000c1';
const request = (method: string, target: string, body?: unknown, headers: Record<string, string> = {}) => {
  const url = new URL(target, 'http://console.test');
  return { method, path: url.pathname, target, query: Object.fromEntries(url.searchParams), headers: new Headers(headers), body };
};

describe('the contract a mocked request is checked against', () => {
  it('finds the endpoint by method and path, a fixed segment before a parameter, with the path parameters decoded', () => {
    expect(endpointOf('GET', '/api/organizations/tree')?.endpoint).toBe(organizationsEndpoints.tree);
    expect(endpointOf('GET', `/api/organizations/${ORG}`)).toEqual({ endpoint: organizationsEndpoints.get, params: { id: ORG } });
    expect(endpointOf('PATCH', `/api/organizations/${ORG}`)?.endpoint).toBe(organizationsEndpoints.update);
    expect(endpointOf('GET', '/api/users/me')?.endpoint).toBe(usersEndpoints.me);
    expect(endpointOf('GET', '/api/organizations/a%20b')?.params).toEqual({ id: 'a b' });
    expect(endpointOf('PUT', '/api/organizations')).toBeNull();
    expect(endpointOf('GET', '/api/no-such-thing')).toBeNull();
  });

  it('takes a request the server takes', () => {
    expect(contractProblemOf(request('GET', '/api/organizations?view=descendants&search=acme&page_size=10'))).toBeNull();
    expect(contractProblemOf(request('GET', `/api/organizations/${ORG}`))).toBeNull();
  });

  it('refuses a query, a path parameter or a body the schema refuses, naming the endpoint and the issue', () => {
    expect(contractProblemOf(request('GET', '/api/organizations?view=descendants&search=acme&page_size=8'))).toEqual({
      status: 400,
      message:
        'GET /api/organizations?view=descendants&search=acme&page_size=8 is refused by listOrganizations (GET /organizations): query.page_size: Page size must be one of 10, 25, 50, 100.',
    });
    expect(contractProblemOf(request('GET', '/api/organizations/org-1'))?.message).toMatch(
      /^GET \/api\/organizations\/org-1 is refused by getOrganization .*params\.id: /,
    );
    expect(contractProblemOf(request('PATCH', `/api/organizations/${ORG}`, { name: 42 }))?.message).toMatch(
      /updateOrganization .*body\.name: /,
    );
    const allocation = { from_org_id: ORG, to_org_id: '00000000-0000-4000-8000-0000000000c2', amount: '10.00' };
    expect(contractProblemOf(request('POST', '/api/credits/allocations', allocation, { 'Idempotency-Key': 'k' }))).toBeNull();
    expect(
      contractProblemOf(request('POST', '/api/credits/allocations', allocation, { 'Idempotency-Key': 'k'.repeat(201) }))?.message,
    ).toMatch(/createAllocation .*headers\.idempotency-key: /);
  });

  it('refuses a path no endpoint declares', () => {
    expect(contractProblemOf(request('GET', '/api/organisations'))).toEqual({
      status: 404,
      message: 'GET /api/organisations: no endpoint of the contract (packages/domain) is declared at this method and path',
    });
  });
});

describe('the fetch mock', () => {
  it("answers a refused request as the server does, not with the route's answer, and fails the test", async () => {
    let answered = false;
    mockApi({
      'GET /api/organizations': () => {
        answered = true;
        return json(200, {});
      },
    });
    await expect(call(organizationsEndpoints.list, { query: { view: 'descendants', search: 'acme', page_size: 8 } })).rejects.toMatchObject(
      {
        status: 400,
        code: 'validation_failed',
      },
    );
    expect(answered).toBe(false);
    expect(assertNoContractProblems).toThrow(
      'The console sent 1 request(s) the server would refuse:\n- GET /api/organizations?view=descendants&search=acme&page_size=8 is refused by listOrganizations',
    );
    // Read once, the problem is not charged again.
    expect(assertNoContractProblems).not.toThrow();
  });

  it('answers a request to a path no endpoint declares with 404, whatever the routes say, and fails the test', async () => {
    mockApi(() => json(200, {}));
    expect((await fetch('/api/organisations')).status).toBe(404);
    expect(assertNoContractProblems).toThrow('GET /api/organisations: no endpoint of the contract');
  });
});
