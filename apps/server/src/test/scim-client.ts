import { expect } from 'vitest';
import { SCIM_CONTENT_TYPE, scimErrorSchema } from '@console/domain';
import type { ApiResponse, TestApp, WorldTest } from './harness.ts';

/** A provider's client of /scim/v2 with one token: bodies sent as application/scim+json. */
export function scimClient(t: TestApp, secret: string) {
  const call = <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> =>
    t.request<T>(method, `/scim/v2${path}`, body, {
      token: secret,
      headers: { ...(body !== undefined && { 'content-type': SCIM_CONTENT_TYPE }), ...headers },
    });
  return {
    call,
    get: <T = any>(path: string, headers?: Record<string, string>) => call<T>('GET', path, undefined, headers),
    post: <T = any>(path: string, body: unknown) => call<T>('POST', path, body),
    put: <T = any>(path: string, body: unknown, headers?: Record<string, string>) => call<T>('PUT', path, body, headers),
    patch: <T = any>(path: string, operations: unknown[], headers?: Record<string, string>) =>
      call<T>('PATCH', path, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations }, headers),
    delete: (path: string, headers?: Record<string, string>) => call('DELETE', path, undefined, headers),
  };
}
export type ScimClient = ReturnType<typeof scimClient>;

/** A SCIM token of `org` made through the console by `who` (an admin of it): its id and secret. */
export async function makeScimToken(w: WorldTest, who: string, org: string, name = 'Okta') {
  const made = await w.t.request('POST', `/api/organizations/${org}/scim-tokens`, { name }, { token: await w.as(who) });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { id: made.body.token.id as string, secret: made.body.secret as string, prefix: made.body.token.prefix as string };
}

/** A SCIM refusal: the status, the SCIM error shape, and the scimType when one is expected. */
export function expectScimError(response: ApiResponse, status: number, scimType?: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/scim\+json/);
  const body = scimErrorSchema.parse(response.body);
  expect(body.status).toBe(String(status));
  if (scimType) expect(body.scimType).toBe(scimType);
  return body;
}

/** A user body as providers send it. */
export const userBody = (email: string, extra: Record<string, unknown> = {}) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: email,
  name: { givenName: 'Ann', familyName: 'Lee' },
  emails: [{ value: email, type: 'work', primary: true }],
  active: true,
  ...extra,
});
