import type { ActivityAction } from '@console/domain';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { WorldTest } from './harness.ts';
import { signInAt } from './oidc-provider.ts';

/** The test app's callback address (its APP_URL is http://console.test): what each test provider registers. */
export const CALLBACK = 'http://console.test/api/auth/sso/callback';

/** What the console's callback answered: where it sends the browser, and the refresh cookie it set. */
export interface Landing {
  status: number;
  location: string | null;
  cookie: string | null;
}

/**
 * Steps of a sign-in through a provider against a test world's app, as one browser would take
 * them: it keeps the cookie the console binds its sign-ins to (`browser()` gives another browser).
 */
export function ssoKit(w: WorldTest) {
  const db = () => w.t.database.db;
  let binding: string | null = null;
  const cookieHeader = () => (binding ? { cookie: binding } : undefined);
  const keepBinding = (headers: Headers) => {
    const set = headers.getSetCookie().find((c) => c.startsWith('sso_browser='));
    if (set) binding = set.split(';')[0]!;
  };
  const base = (org: string) => `/api/organizations/${org}/identity`;

  /** Registers (or changes) an organization's provider as one of its people. */
  async function provide(who: string, org: string, body: Record<string, unknown>) {
    return w.t.request('PUT', `${base(org)}/provider`, body, { token: await w.as(who) });
  }

  async function settings(who: string, org: string, body: Record<string, unknown>) {
    return w.t.request('PUT', `${base(org)}/settings`, body, { token: await w.as(who) });
  }

  /** A domain claim in effect, written straight to the database (the domain tests prove the DNS and approval routes). */
  async function inEffect(org: string, domain: string) {
    await db()
      .insertInto('identity_domains')
      .values({ organization_id: org, domain, verification_token: `token-${domain}`, verified_at: sql`now()` })
      .execute();
  }

  /** The callback the provider sent the browser to, fetched without following the console's redirect. */
  async function land(callbackUrl: string): Promise<Landing> {
    const url = new URL(callbackUrl);
    expect(url.origin + url.pathname).toBe(CALLBACK);
    const response = await fetch(w.t.baseUrl + url.pathname + url.search, { redirect: 'manual', headers: cookieHeader() });
    const cookie = response.headers
      .getSetCookie()
      .find((c) => c.startsWith('refresh_token='))
      ?.split(';')[0];
    return { status: response.status, location: response.headers.get('location'), cookie: cookie ?? null };
  }

  /** The sign-in page's first step: where an e-mail signs in. */
  async function discover(email: string) {
    const found = await w.t.request('POST', '/api/auth/sso/discover', { email }, { headers: cookieHeader() });
    keepBinding(found.headers);
    return found;
  }

  /** An admin's test sign-in: the provider's authorization URL for it. */
  async function startTest(who: string, org: string) {
    const started = await w.t.request('POST', `${base(org)}/test`, undefined, { token: await w.as(who), headers: cookieHeader() });
    keepBinding(started.headers);
    return started;
  }

  /** A signed-in session's step-up through its provider, from this browser: the answer holds the provider's address. */
  async function startStepUp(token: string, returnTo: string) {
    const started = await w.t.request('POST', '/api/auth/sso/step-up', { return_to: returnTo }, { token, headers: cookieHeader() });
    keepBinding(started.headers);
    return started;
  }

  /** The provider's authorization URL for an e-mail whose organization signs in through its provider. */
  async function authorizationUrl(email: string): Promise<string> {
    const found = await discover(email);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.method, `${email} signs in through a provider`).toBe('sso');
    return found.body.redirect_url;
  }

  /** E-mail first, then the provider's login page as `login` (the same person by default), then the console's callback. */
  async function signInThrough(email: string, login = email): Promise<Landing & { callbackUrl: string }> {
    const callbackUrl = await signInAt(await authorizationUrl(email), login);
    return { ...(await land(callbackUrl)), callbackUrl };
  }

  /** The person a refresh cookie signs in, as the console boots with it: refresh, then /users/me. */
  async function whoIs(cookie: string): Promise<{ email: string; role: string }> {
    const refreshed = await w.t.request('POST', '/api/auth/refresh', undefined, { cookie });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const me = await w.t.request('GET', '/api/users/me', undefined, { token: refreshed.body.access_token });
    expect(me.status).toBe(200);
    return me.body;
  }

  /** The audit rows of an action, oldest first. */
  function audits(action: ActivityAction) {
    return db()
      .selectFrom('audit_log')
      .select(['organization_id', 'actor_user_id', 'target_id', 'details'])
      .where('action', '=', action)
      .orderBy('id')
      .execute();
  }

  return {
    base,
    provide,
    settings,
    inEffect,
    land,
    discover,
    startTest,
    startStepUp,
    authorizationUrl,
    signInThrough,
    whoIs,
    audits,
  };
}
