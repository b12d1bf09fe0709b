import { UI, type IdentityView, type UserProfile } from '@console/domain';
import { describe, expect, it } from 'vitest';
import { startOidcProvider } from '../apps/server/src/test/oidc-provider.ts';
import { expectAccessible } from './axe.ts';
import { ADMIN, useJourney, widthReport } from './harness.ts';
import { MESSAGES } from './wording.ts';

// The provider runs on this machine (127.0.0.1), which the console refuses as an issuer unless allowed.
const LOOKS = !process.env.DATABASE_URL;
const journey = useJourney({ env: { IDENTITY_ALLOWED_HOSTS: '127.0.0.1' } });

describe('single sign-on', () => {
  it("takes a person from their e-mail on /login to their organization's provider, and back signed in to the dashboard", async () => {
    const { server } = journey;
    const token = await server.signIn(ADMIN.email, ADMIN.password);
    const me = await server.api<UserProfile>('/api/users/me', { token });
    const base = `/api/organizations/${me.body.organization.id}/identity`;
    const { body: before } = await server.api<IdentityView>(base, { token });

    // The organization's provider knows the console by the redirect URI the Identity page shows.
    const client = { client_id: 'console', client_secret: 'e2e provider secret', redirect_uris: [before.redirect_uri] };
    const provider = await startOidcProvider({
      clients: [client],
      accounts: [{ sub: 'idp-admin-1', email: ADMIN.email, name: 'Ada Admin' }],
    });
    try {
      // Set up through the API as the house admin, just signed in (a fresh proof for the step-up):
      // the provider, and the admin's own e-mail domain approved by hand.
      const registered = await server.api<IdentityView>(`${base}/provider`, {
        method: 'PUT',
        token,
        body: { issuer: provider.issuer, client_id: client.client_id, client_secret: client.client_secret },
      });
      expect(registered.status, JSON.stringify(registered.body)).toBe(200);
      const claimed = await server.api<IdentityView>(`${base}/domains`, { method: 'POST', token, body: { domain: 'example.test' } });
      expect(claimed.status, JSON.stringify(claimed.body)).toBe(201);
      const approved = await server.api(`${base}/domains/${claimed.body.domains[0]!.id}/approve`, { method: 'POST', token });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);

      // The e-mail first: its domain sends the browser to the provider's own login page, no password asked here.
      const page = await journey.freshPage();
      await page.goto(server.url('/login'));
      await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
      await page.getByRole('button', { name: MESSAGES.auth.continue, exact: true }).click();
      await page.waitForURL((url) => url.origin === provider.issuer);
      await page.getByRole('heading', { name: 'Test identity provider: sign in' }).waitFor();
      expect(await page.getByLabel('E-mail').inputValue()).toBe(ADMIN.email);
      await page.getByLabel('Password').fill('the provider checks its own password');
      await page.getByRole('button', { name: 'Sign-in' }).click();

      // Back through the callback: the session starts from the refresh cookie it set.
      await page.waitForURL((url) => url.origin === new URL(server.baseUrl).origin && url.pathname === '/dashboard');
      await page.getByRole('heading', { level: 1, name: me.body.organization.name }).waitFor();

      // The Identity page shows what was set, every answer of the real server read through the contract's schemas.
      await page.goto(server.url('/settings/identity'));
      await page.getByRole('heading', { level: 1, name: MESSAGES.identityPages.title }).waitFor();
      expect(await page.getByLabel(MESSAGES.identityPages.provider.issuer).inputValue()).toBe(provider.issuer);
      await page
        .getByRole('listitem', { name: 'example.test' })
        .getByText(MESSAGES.identityPages.domains.states.approved, { exact: true })
        .waitFor();
      await page.getByText(MESSAGES.identityPages.calls.none).waitFor();
      // Width, theme and axe depend on the page, not the database: checked on the embedded one only.
      if (!LOOKS) return;
      await expectAccessible(page, 'identity page');
      await page.setViewportSize({ width: 390, height: 800 });
      await page.getByText(before.redirect_uri).waitFor();
      const width = await widthReport(page);
      expect(width.scrollWidth, width.wide.join('\n')).toBeLessThanOrEqual(width.innerWidth);
      // And dark, at that width (a reload keeps the session: the refresh cookie again).
      await page.evaluate((key) => localStorage.setItem(key, 'dark'), UI.themeStorageKey);
      await page.reload();
      await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
      await page.getByRole('listitem', { name: 'example.test' }).waitFor();
      await expectAccessible(page, 'identity page, dark, 390 px');
    } finally {
      await provider.close();
    }
  });
});
