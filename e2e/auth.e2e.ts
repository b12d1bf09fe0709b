import { MFA, UI, type UserProfile } from '@console/domain';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, allocateAskingStepUp, inviteAndRegister, signInWithForm, useJourney, widthReport, type TestServer } from './harness.ts';
import { MESSAGES } from './wording.ts';

// Served as localhost: a browser takes no IP address as a passkey's relying party. A step-up
// window of two seconds: the passkey journey waits it out rather than ten minutes (nothing else
// here moves money or secrets).
const STEP_UP_WINDOW_SECONDS = 2;
const journey = useJourney({ localhost: true, env: { STEP_UP_FRESH_SECONDS: String(STEP_UP_WINDOW_SECONDS) } });

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
    await page.getByRole('button', { name: MESSAGES.auth.continue, exact: true }).click();
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
    await page.getByRole('button', { name: MESSAGES.auth.continue, exact: true }).click();
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
    await page.getByRole('button', { name: MESSAGES.auth.continue, exact: true }).click();
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/credit-ledger' && url.search === '?type=allocation_sent');

    // Signed in, /login has nothing to offer: on to the dashboard.
    await page.goto(journey.server.url('/login'));
    await page.waitForURL((url) => url.pathname === '/dashboard');

    const other = await journey.freshPage();
    await other.goto(journey.server.url(`/login?next=${encodeURIComponent('//example.com/x')}`));
    await other.getByLabel('Email', { exact: true }).fill(ADMIN.email);
    await other.getByRole('button', { name: MESSAGES.auth.continue, exact: true }).click();
    await other.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.waitForURL((url) => url.pathname === '/dashboard');
    expect(new URL(other.url()).origin).toBe(new URL(journey.server.url('/')).origin);
  });
});

/** The password step, then the second step with a code from the app or a recovery code; waits for the dashboard. */
async function signInWithSecondFactor(
  page: Page,
  server: TestServer,
  person: { email: string; password: string },
  code: { totp?: string; recovery?: string },
) {
  await page.goto(server.url('/login'));
  await page.getByLabel('Email', { exact: true }).fill(person.email);
  await page.getByRole('button', { name: MESSAGES.auth.continue, exact: true }).click();
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const { auth } = MESSAGES;
  await page.getByText(auth.totpPrompt).waitFor();
  if (code.recovery) {
    await page.getByRole('button', { name: auth.useRecoveryCode }).click();
    await page.getByLabel(auth.recoveryLabel, { exact: true }).fill(code.recovery);
  } else {
    await page.getByLabel(auth.totpLabel, { exact: true }).fill(code.totp ?? '');
  }
  await page.getByRole('button', { name: auth.verify }).click();
  await page.waitForURL('**/dashboard');
}

describe('a second factor', () => {
  it('is set up on the Security page, signs in with an app code and with a recovery code, and ends another session there', async () => {
    const { server } = journey;
    const w = MESSAGES.security;
    // A person of their own, so no other journey depends on them signing in with a password alone.
    const adminToken = await server.signIn(ADMIN.email, ADMIN.password);
    const house = await server.api<UserProfile>('/api/users/me', { token: adminToken });
    const person = { email: 'second.factor@example.test', password: 'e2e second factor password 1' };
    await inviteAndRegister(server, {
      inviterToken: adminToken,
      houseToken: adminToken,
      organizationId: house.body.organization_id,
      role: 'house_user',
      ...person,
    });

    const page = await journey.freshPage();
    await signInWithForm(page, server, person.email, person.password);
    await page.goto(server.url('/account/security'));
    await page.getByText(w.app.notEnrolled).waitFor();
    await page.getByRole('button', { name: w.app.setUp }).click();
    await page.getByLabel(w.setup.passwordLabel, { exact: true }).fill(person.password);
    await page.getByRole('button', { name: w.setup.continue }).click();
    await page.getByRole('img', { name: w.setup.qrAlt }).waitFor();
    // The key as shown (grouped for reading), as a person would type it into their app.
    const secret = (await page.getByLabel(w.setup.secretLabel).textContent())!.replaceAll(' ', '');
    await page.getByLabel(w.setup.codeLabel, { exact: true }).fill(await generate({ secret }));
    await page.getByRole('button', { name: w.setup.confirm }).click();
    const list = page.getByRole('list', { name: w.codes.listLabel });
    await list.waitFor();
    const codes = await list.getByRole('listitem').allTextContents();
    expect(codes).toHaveLength(MFA.recoveryCodeCount);
    await page.getByRole('button', { name: w.codes.done }).click();
    await page.getByText(w.app.recoveryLeft(MFA.recoveryCodeCount)).waitFor();
    await expectAccessible(page, 'security page, 1280 px');

    // A second browser signs in with the next step's code (a step is never accepted twice).
    const other = await journey.openBrowser();
    const nextStep = Math.floor(Date.now() / 1000) + MFA.totpStepSeconds;
    await signInWithSecondFactor(other.page, server, person, { totp: await generate({ secret, epoch: nextStep }) });

    // The first browser sees it among its sessions and ends it.
    await page.reload();
    const sessions = page.getByRole('list', { name: w.sessions.title });
    await sessions.getByText(w.sessions.thisSession).waitFor();
    expect(await sessions.getByRole('listitem').count()).toBe(2);
    await sessions.getByRole('button', { name: new RegExp(`^${w.sessions.end} `) }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: w.sessions.end }).click();
    await page.getByText(w.sessions.ended(1)).waitFor();
    await expect.poll(() => sessions.getByRole('listitem').count(), { timeout: 10_000 }).toBe(1);
    await other.page.goto(server.url('/dashboard'));
    await other.page.waitForURL((url) => url.pathname === '/login');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { level: 1, name: w.title }).waitFor();
    await expectAccessible(page, 'security page, 390 px');
    const { scrollWidth, innerWidth, wide } = await widthReport(page);
    expect(scrollWidth, wide.join('\n')).toBeLessThanOrEqual(innerWidth);
    // And in the dark theme, as the theme toggle keeps it.
    await page.evaluate((key) => localStorage.setItem(key, 'dark'), UI.themeStorageKey);
    await page.reload();
    await page.locator('html.dark').waitFor({ state: 'attached' });
    await page.getByRole('list', { name: w.sessions.title }).waitFor();
    await expectAccessible(page, 'security page, 390 px, dark');

    // Signed out, a password alone is not enough: a recovery code answers the challenge once.
    await page.getByRole('button', { name: new RegExp(person.email) }).click();
    await page.getByRole('menuitem', { name: new RegExp(MESSAGES.shell.logOut) }).click();
    await page.waitForURL('**/login');
    await signInWithSecondFactor(page, server, person, { recovery: codes[0] });
    await page.goto(server.url('/account/security'));
    await page.getByText(w.app.recoveryLeft(MFA.recoveryCodeCount - 1)).waitFor();
  });
});

describe('a required second factor', () => {
  it("is required by an organization's admin with no grace, and leads its person from the password to an authenticator app, then on", async () => {
    const { server } = journey;
    const p = MESSAGES.mfaPolicy;
    const w = MESSAGES.security;
    const adminToken = await server.signIn(ADMIN.email, ADMIN.password);
    // An organization of its own, so no other journey's people are covered.
    const created = await server.api<{ organization: { id: string } }>('/api/organizations', {
      method: 'POST',
      token: adminToken,
      body: { name: 'Second Factor Required', org_type: 'super_agency' },
    });
    expect(created.status).toBe(201);
    const orgId = created.body.organization.id;
    const admin = { email: 'mfa.policy.admin@example.test', password: 'e2e mfa policy admin password 1' };
    const person = { email: 'mfa.policy.person@example.test', password: 'e2e mfa policy person password 1' };
    for (const [who, role] of [
      [admin, 'super_agency_admin'],
      [person, 'super_agency_user'],
    ] as const) {
      await inviteAndRegister(server, { inviterToken: adminToken, houseToken: adminToken, organizationId: orgId, role, ...who });
    }

    // The organization's admin requires a second factor for its people, with no grace.
    const page = await journey.freshPage();
    await signInWithForm(page, server, admin.email, admin.password);
    await page.goto(server.url(`/orgs/${orgId}`));
    const form = page.getByRole('form', { name: p.title });
    await form.waitFor();
    await expectAccessible(page, 'organization page with the second-factor policy, 1280 px');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, 'organization page with the second-factor policy, 390 px');
    const { scrollWidth, innerWidth, wide } = await widthReport(page);
    expect(scrollWidth, wide.join('\n')).toBeLessThanOrEqual(innerWidth);
    await form.getByRole('switch', { name: p.requireOwn }).click();
    await form.getByLabel(p.graceDaysLabel).fill('0');
    await form.getByRole('button', { name: p.save }).click();
    await page.getByText(p.saved).waitFor();

    // Its person signs in with the password and is led straight to the setup.
    const led = await journey.freshPage();
    await signInWithForm(led, server, person.email, person.password);
    await led.waitForURL((url) => url.pathname === '/account/security');
    await led.getByText(p.leadOverdue).waitFor();
    await expectAccessible(led, 'security page with the enrollment lead, 1280 px');
    // Nothing else answers until then.
    const token = await server.signIn(person.email, person.password);
    expect((await server.api('/api/dashboard', { token })).status).toBe(403);
    await led.getByRole('button', { name: w.app.setUp }).click();
    await led.getByLabel(w.setup.passwordLabel, { exact: true }).fill(person.password);
    await led.getByRole('button', { name: w.setup.continue }).click();
    await led.getByRole('img', { name: w.setup.qrAlt }).waitFor();
    const secret = (await led.getByLabel(w.setup.secretLabel).textContent())!.replaceAll(' ', '');
    await led.getByLabel(w.setup.codeLabel, { exact: true }).fill(await generate({ secret }));
    await led.getByRole('button', { name: w.setup.confirm }).click();
    await led.getByRole('list', { name: w.codes.listLabel }).waitFor();
    await led.getByRole('button', { name: w.codes.done }).click();
    await led.getByText(w.app.recoveryLeft(MFA.recoveryCodeCount)).waitFor();
    expect(await led.getByText(p.leadOverdue).count()).toBe(0);

    // Then the dashboard opens.
    await led.goto(server.url('/dashboard'));
    await led.getByRole('heading', { level: 1, name: 'Second Factor Required' }).waitFor();
    expect(new URL(led.url()).pathname).toBe('/dashboard');
  });
});

describe('passkeys', () => {
  it('adds a passkey on the Security page, signs in with it alone and as the second step, and confirms an allocation with it', async () => {
    const { server } = journey;
    const w = MESSAGES.security;
    const adminToken = await server.signIn(ADMIN.email, ADMIN.password);
    const house = await server.api<UserProfile>('/api/users/me', { token: adminToken });
    const person = { email: 'passkey.person@example.test', password: 'e2e passkey password 1' };
    await inviteAndRegister(server, {
      inviterToken: adminToken,
      houseToken: adminToken,
      organizationId: house.body.organization_id,
      role: 'house_admin',
      ...person,
    });

    const page = await journey.freshPage();
    // Chromium's virtual authenticator: a platform passkey that keeps resident keys and verifies its person.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    await signInWithForm(page, server, person.email, person.password);
    await page.goto(server.url('/account/security'));
    await page.getByText(w.passkeys.none).waitFor();
    await page.getByRole('button', { name: w.passkeys.add }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(w.passkeys.passwordLabel, { exact: true }).fill(person.password);
    await dialog.getByLabel(w.passkeys.nameLabel, { exact: true }).fill('Virtual key');
    await dialog.getByRole('button', { name: w.passkeys.continue }).click();
    // The first factor: recovery codes, once.
    await page.getByRole('list', { name: w.codes.listLabel }).waitFor();
    await page.getByRole('button', { name: w.codes.done }).click();
    const list = page.getByRole('list', { name: w.passkeys.title });
    await list.getByText('Virtual key').waitFor();
    await expectAccessible(page, 'security page with a passkey, 1280 px');
    await page.setViewportSize({ width: 390, height: 844 });
    await list.getByText('Virtual key').waitFor();
    await expectAccessible(page, 'security page with a passkey, 390 px');
    const { scrollWidth, innerWidth, wide } = await widthReport(page);
    expect(scrollWidth, wide.join('\n')).toBeLessThanOrEqual(innerWidth);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Signed out, the passkey alone signs in: no e-mail typed.
    const signOut = async () => {
      await page.getByRole('button', { name: new RegExp(person.email) }).click();
      await page.getByRole('menuitem', { name: new RegExp(MESSAGES.shell.logOut) }).click();
      await page.waitForURL('**/login**');
      // A plain /login: once signed in, the dashboard (not the page signed out from).
      await page.goto(server.url('/login'));
    };
    await signOut();
    await page.getByRole('button', { name: MESSAGES.auth.continueWithPasskey }).click();
    await page.waitForURL('**/dashboard');

    // And with the password, the passkey answers the second step.
    await signOut();
    await page.getByLabel('Email', { exact: true }).fill(person.email);
    await page.getByRole('button', { name: MESSAGES.auth.continue, exact: true }).click();
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: MESSAGES.auth.usePasskey }).click();
    await page.waitForURL('**/dashboard');
    await page.goto(server.url('/account/security'));
    await list.getByText('Virtual key').waitFor();
    await expect.poll(() => list.getByText(w.passkeys.never).count()).toBe(0);

    // Past the step-up window, an allocation above the threshold asks: the passkey confirms it, no password.
    const { dialog: stepUp } = await allocateAskingStepUp(page, server, {
      houseToken: adminToken,
      houseId: house.body.organization_id,
      childName: 'Passkey Super Agency',
      amount: '1500',
      staleFrom: Date.now() + STEP_UP_WINDOW_SECONDS * 1000 + 250,
    });
    await stepUp.getByText(MESSAGES.stepUp.passkeyDescription).waitFor();
    expect(await stepUp.getByLabel(MESSAGES.stepUp.passwordLabel).count()).toBe(0);
    await expectAccessible(page, 'step-up dialog with a passkey');
    await stepUp.getByRole('button', { name: MESSAGES.stepUp.usePasskey }).click();
    const result = page.getByRole('status', { name: MESSAGES.creditPages.allocatedTitle });
    await result.waitFor();
    expect(await result.textContent()).toContain('1,500.00 credits');
  });
});
