/**
 * Security headers on every response (issue 8, part 3): every /api route of the route
 * table, anonymous and as a house admin, plus 404s, error responses, the API docs and the
 * console's HTML. modules/auth/auth.test.ts checks /api/health and one 404 only.
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type ApiResponse, type TestApp } from '../test/harness.ts';
import { houseId } from '../test/fixtures.ts';
import { insertApiKey } from '../test/usage-rows.ts';

let t: TestApp;
let checks = 0;
beforeAll(async () => {
  t = await createTestApp();
});
afterEach(() => {
  checks += expect.getState().assertionCalls;
});
afterAll(async () => {
  console.log(`headers.test.ts: ${checks} checks`);
  await t?.close();
});

function expectSecurityHeaders(response: ApiResponse, label: string, { api = true, ownCsp = true } = {}) {
  const header = (name: string) => response.headers.get(name);
  expect(header('x-content-type-options'), label).toBe('nosniff');
  expect(header('x-frame-options'), label).toBe('DENY');
  const permissions = header('permissions-policy') ?? '';
  for (const feature of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()']) expect(permissions, label).toContain(feature);
  // APP_URL of these apps is http: no HSTS, which would pin a host to https it may not have.
  expect(header('strict-transport-security'), label).toBeNull();
  if (ownCsp) {
    const csp = header('content-security-policy') ?? '';
    expect(csp, label).toContain("default-src 'self'");
    expect(csp, label).toContain("frame-ancestors 'none'");
    expect(csp, label).toMatch(/script-src 'self'(;|$)/);
  }
  if (api) expect(header('cache-control'), label).toBe('no-store');
}

/** A request that reaches the route: path parameters filled, a JSON body where one is read. */
function callRoute(method: string, url: string, session: { token?: string; cookie?: string; headers?: Record<string, string> } = {}) {
  const path = url.replace(/:\w+/g, randomUUID());
  const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined;
  return t.request(method, path, body, session);
}

describe('every route', () => {
  it('the route table is not empty', () => {
    expect(t.app.routeTable.length).toBeGreaterThan(30);
  });

  it('anonymous calls carry the headers', async () => {
    for (const { method, url } of t.app.routeTable) {
      const response = await callRoute(method, url);
      expect(JSON.stringify(response.body), `${method} ${url} reached`).not.toContain('No route');
      expectSecurityHeaders(response, `${method} ${url} → ${response.status}`);
    }
  });

  it("a house admin's calls carry the headers, successes included", async () => {
    const session = await t.signIn(t.admin.email, t.admin.password);
    // The machine API takes an API key instead of a session.
    const { key } = await insertApiKey(t.database.db, await houseId(t.database.db));
    const signedIn = (url: string) => (url.startsWith('/api/v1/') ? { headers: { authorization: `Bearer ${key}` } } : session);
    // Sign-out last: it ends the session the other calls use.
    const routes = [...t.app.routeTable].sort((a, b) => Number(a.url === '/api/auth/sign-out') - Number(b.url === '/api/auth/sign-out'));
    const statuses = new Set<number>();
    for (const { method, url } of routes) {
      const response = await callRoute(method, url, signedIn(url));
      expect(response.status, `${method} ${url} signed in`).not.toBe(401);
      statuses.add(response.status);
      expectSecurityHeaders(response, `${method} ${url} → ${response.status}`);
    }
    expect(statuses).toContain(200);
  });
});

describe('other responses', () => {
  it('404s, in and out of /api', async () => {
    const api = await t.request('GET', '/api/no-such-route');
    expect(api.status).toBe(404);
    expectSecurityHeaders(api, 'api 404');
    const page = await t.request('GET', '/no-such-page');
    expect(page.status).toBe(404);
    expectSecurityHeaders(page, 'page 404', { api: false });
  });

  it('error responses: malformed JSON, wrong content type, body too large', async () => {
    const cases: [string, () => Promise<ApiResponse>, number][] = [
      ['malformed JSON', () => t.request('POST', '/api/auth/sign-in', undefined, { raw: '{"email":' }), 400],
      [
        'wrong content type',
        () => t.request('POST', '/api/auth/sign-in', undefined, { raw: '<email/>', headers: { 'content-type': 'application/xml' } }),
        415,
      ],
      [
        'body too large',
        () => t.request('POST', '/api/auth/sign-in', undefined, { raw: JSON.stringify({ email: 'x'.repeat(300 * 1024) }) }),
        413,
      ],
    ];
    for (const [name, send, status] of cases) {
      const response = await send();
      expect(response.status, name).toBe(status);
      expectSecurityHeaders(response, name);
    }
  });

  // Fastify answers these from the router, before any hook: buildApp's frameworkErrors
  // gives them the headers and the error shape.
  it('a URL the router refuses (bad percent-encoding, over-long parameter)', async () => {
    for (const path of ['/api/users/%E0%A4%A', `/api/users/${'a'.repeat(200)}`]) {
      const response = await t.request('GET', path);
      expect(response.status, path).toBe(400);
      expect(response.body.error, path).toEqual({ code: expect.any(String), message: expect.stringContaining('Malformed request') });
      expectSecurityHeaders(response, path);
    }
  });

  it('a server error (the database gone) carries them too', async () => {
    const broken = await createTestApp();
    const { token } = await broken.signIn(broken.admin.email, broken.admin.password);
    await broken.database.close();
    try {
      const response = await broken.request('GET', '/api/users/me', undefined, { token });
      expect(response.status).toBeGreaterThanOrEqual(500);
      expectSecurityHeaders(response, `database gone → ${response.status}`);
    } finally {
      await broken.app.close();
    }
  });

  it("the API docs keep swagger UI's own CSP but get the other headers", async () => {
    for (const path of ['/api/docs', '/api/docs/json']) {
      const response = await t.request('GET', path);
      expect(response.status, path).toBe(200);
      expectSecurityHeaders(response, path, { ownCsp: false });
    }
  });
});

describe('served on https (APP_URL)', () => {
  it('every answer carries HSTS for a year, subdomains included, with the other headers', async () => {
    const https = await createTestApp({ appUrl: 'https://console.test' });
    try {
      const session = await https.signIn(https.admin.email, https.admin.password);
      const answers: [string, ApiResponse][] = [
        ['health', await https.request('GET', '/api/health')],
        ['signed in', await https.request('GET', '/api/users/me', undefined, session)],
        ['404', await https.request('GET', '/api/no-such-route')],
        ['malformed JSON', await https.request('POST', '/api/auth/sign-in', undefined, { raw: '{"email":' })],
        ['router refusal', await https.request('GET', '/api/users/%E0%A4%A')],
        ['page 404', await https.request('GET', '/no-such-page')],
      ];
      for (const [label, response] of answers) {
        expect(response.headers.get('strict-transport-security'), label).toBe('max-age=31536000; includeSubDomains');
        expect(response.headers.get('permissions-policy'), label).toContain('camera=()');
        expect(response.headers.get('x-content-type-options'), label).toBe('nosniff');
      }
    } finally {
      await https.close();
    }
  });
});

describe('the console HTML', () => {
  const dist = fileURLToPath(new URL('../../../web/dist/', import.meta.url));
  const built = existsSync(`${dist}index.html`);

  it.skipIf(!built)(
    `is served under the CSP${built ? '' : ' (skipped: apps/web/dist is not built; the e2e journeys run the console under this CSP)'}`,
    async () => {
      const web = await createTestApp({ serveWeb: true });
      try {
        const asset = readdirSync(`${dist}assets`).find((name) => name.endsWith('.js'));
        for (const path of ['/', '/dashboard', ...(asset ? [`/assets/${asset}`] : [])]) {
          const response = await web.request('GET', path);
          expect(response.status, path).toBe(200);
          expectSecurityHeaders(response, path, { api: false });
        }
      } finally {
        await web.close();
      }
    },
  );
});
