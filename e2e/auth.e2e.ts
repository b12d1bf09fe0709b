import { type UserProfile } from '@console/domain';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, signInWithForm, useJourney } from './harness.ts';
import { MESSAGES } from '../apps/web/src/lib/wording.ts';

const journey = useJourney();

describe('signing in and out', () => {
  it('takes the admin from a protected page through /login to the shell and the dashboard', async () => {
    const token = await journey.server.signIn(ADMIN.email, ADMIN.password);
    const me = await journey.server.api<UserProfile>('/api/users/me', { token });
    const page = await journey.freshPage();

    await page.goto(journey.server.url('/dashboard'));
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === '/dashboard');
    // The page itself, not the loading screen before it (which has no heading or main landmark yet).
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByLabel('Email', { exact: true }).waitFor();
    await expectAccessible(page, 'login page');
    await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');

    await page.getByText(MESSAGES.auth.loginSuccessful).waitFor();
    await page.getByRole('heading', { level: 1, name: me.body.organization.name }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(Object.values(MESSAGES.shell.nav));
  });

  it('keeps the session across a reload (refresh cookie, token in memory only)', async () => {
    const page = await journey.freshPage();
    await signInWithForm(page, journey.server, ADMIN.email, ADMIN.password);
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toContain('eyJ');
  });

  it('shows Login Failed for a wrong password', async () => {
    const page = await journey.freshPage();
    await page.goto(journey.server.url('/login'));
    await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();

    const alert = page.getByRole('alert').filter({ hasText: MESSAGES.loginErrors.auth.title });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(MESSAGES.loginErrors.auth.message);
    expect(new URL(page.url()).pathname).toBe('/login');
    await expectAccessible(page, 'login page with Login Failed');
  });

  it('signs out from the profile menu and lands on /login, which says so', async () => {
    const page = await journey.freshPage();
    await signInWithForm(page, journey.server, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: new RegExp(ADMIN.email) }).click();
    await page.getByRole('menuitem', { name: new RegExp(MESSAGES.shell.logOut) }).click();

    await page.waitForURL('**/login');
    await page.getByText(MESSAGES.auth.signedOutBody).waitFor();
    // The server ended the session: a reload does not bring it back.
    await page.goto(journey.server.url('/dashboard'));
    await page.waitForURL((url) => url.pathname === '/login');
  });

  it('returns to the page asked for after signing in, takes no address of another origin, and sends a signed-in visitor of /login on', async () => {
    const page = await journey.freshPage();
    await page.goto(journey.server.url('/credit-ledger?type=allocation_sent'));
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === '/credit-ledger?type=allocation_sent');
    await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/credit-ledger' && url.search === '?type=allocation_sent');

    // Signed in, /login has nothing to offer: on to the dashboard.
    await page.goto(journey.server.url('/login'));
    await page.waitForURL((url) => url.pathname === '/dashboard');

    const other = await journey.freshPage();
    await other.goto(journey.server.url(`/login?next=${encodeURIComponent('//example.com/x')}`));
    await other.getByLabel('Email', { exact: true }).fill(ADMIN.email);
    await other.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.waitForURL((url) => url.pathname === '/dashboard');
    expect(new URL(other.url()).origin).toBe(new URL(journey.server.url('/')).origin);
  });
});
