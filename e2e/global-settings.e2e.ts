import { UI } from '@console/domain';
import { beforeAll, expect, it } from 'vitest';
import { ADMIN, allocateAskingStepUp, mailedLink, signInWithForm, useJourney } from './harness.ts';
import { expectAccessible } from './axe.ts';
import { MESSAGES } from './wording.ts';

/** The house admin's global settings reach the Welcome and Settings pages; theme System follows the device; a replaced invitation link says so. */

const g = MESSAGES.globalSettings;
// A step-up window of two seconds: the last test waits it out rather than ten minutes. Nothing
// else here moves money or secrets.
const STEP_UP_WINDOW_SECONDS = 2;
const journey = useJourney({ env: { STEP_UP_FRESH_SECONDS: String(STEP_UP_WINDOW_SECONDS) } });
let adminToken: string;

beforeAll(async () => {
  adminToken = await journey.server.signIn(ADMIN.email, ADMIN.password);
});

it('a house admin sets the links; Welcome and Settings show them, and say so while unset', { timeout: 120_000 }, async () => {
  const { server } = journey;
  const visitor = await journey.freshPage();
  await visitor.goto(server.url('/'));
  await visitor.getByText(MESSAGES.welcome.noDocumentation).waitFor();
  expect(await visitor.getByRole('link', { name: MESSAGES.welcome.apiReference }).getAttribute('href')).toBe('/api/docs');

  const admin = (await journey.openBrowser()).page;
  await signInWithForm(admin, server, ADMIN.email, ADMIN.password);
  await admin.goto(server.url('/settings'));
  await admin.getByText(g.noBillingPortalAdmin).waitFor();
  const form = admin.getByRole('form', { name: g.title });
  await form.getByLabel(g.documentationUrl).fill('docs.example.test');
  await form.getByRole('button', { name: g.save }).click();
  await form.getByText(g.invalidUrl).waitFor();
  await form.getByLabel(g.documentationUrl).fill('https://docs.example.test/console');
  await form.getByLabel(g.billingPortalUrl).fill('https://billing.example.test/portal');
  await form.getByLabel(g.channelName(1)).fill('Forum');
  await form.getByLabel(g.channelUrl(1)).fill('https://forum.example.test');
  await form.getByRole('button', { name: g.save }).click();
  await admin.getByText(g.saved).waitFor();
  expect(await admin.getByRole('link', { name: g.billingPortal }).getAttribute('href')).toBe('https://billing.example.test/portal');
  expect(await admin.getByRole('link', { name: 'Forum' }).getAttribute('href')).toBe('https://forum.example.test');

  await visitor.reload();
  const docs = visitor.getByRole('link', { name: MESSAGES.welcome.documentation });
  await docs.waitFor();
  expect(await docs.getAttribute('href')).toBe('https://docs.example.test/console');
  expect(await visitor.getByText(MESSAGES.welcome.noDocumentation).count()).toBe(0);
});

it('theme System follows the device preference as it changes, and is kept', { timeout: 60_000 }, async () => {
  const page = await journey.freshPage();
  await signInWithForm(page, journey.server, ADMIN.email, ADMIN.password);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(journey.server.url('/settings'));
  await page.getByRole('radio', { name: MESSAGES.shell.themeLabels.system }).check();
  const rootClass = () => page.evaluate(() => document.documentElement.className);
  await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForFunction(() => document.documentElement.classList.contains('light'));
  expect(await rootClass()).not.toContain('dark');
  expect(await page.evaluate((key) => localStorage.getItem(key), UI.themeStorageKey)).toBe('system');
});

it('after Resend, the old invitation link says it was replaced; the new one opens registration', { timeout: 60_000 }, async () => {
  const { server } = journey;
  const me = await server.api<{ organization_id: string }>('/api/users/me', { token: adminToken });
  const created = await server.api<{ invitation: { id: string } }>('/api/invitations', {
    method: 'POST',
    token: adminToken,
    body: {
      email: 'resent@example.test',
      role: 'house_user',
      first_name: 'Rita',
      last_name: 'Resent',
      organization_id: me.body.organization_id,
    },
  });
  expect(created.status).toBe(201);
  const old = await mailedLink(server, adminToken, 'resent@example.test');
  // A resend waits the least time between two mails of one invitation (60 s divided by the
  // journeys' RATE_LIMIT_FACTOR of 100).
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect((await server.api(`/api/invitations/${created.body.invitation.id}/resend`, { method: 'POST', token: adminToken })).status).toBe(
    200,
  );
  const fresh = await mailedLink(server, adminToken, 'resent@example.test');
  expect(fresh).not.toBe(old);

  const page = await journey.freshPage();
  await page.goto(old);
  await page.getByText(MESSAGES.invitations.linkReplaced).waitFor();
  expect(await page.getByText(MESSAGES.invitations.invalidLink).count()).toBe(0);
  await page.goto(fresh);
  await page.getByRole('button', { name: 'Create Account & Accept' }).waitFor();
});

it('past the step-up window, an allocation above the threshold asks for the password in a dialog, then lands', {
  timeout: 90_000,
}, async () => {
  const { server } = journey;
  const p = MESSAGES.creditPages;
  const me = await server.api<{ organization_id: string }>('/api/users/me', { token: adminToken });
  const threshold = await server.api<{ step_up_threshold: string }>('/api/settings', { token: adminToken });
  expect(threshold.body.step_up_threshold).toBe('1000.00');

  const page = await journey.freshPage();
  await signInWithForm(page, server, ADMIN.email, ADMIN.password);
  // The sign-in proved the password; the allocation below is sent once that proof is past the window.
  const { child, dialog } = await allocateAskingStepUp(page, server, {
    houseToken: adminToken,
    houseId: me.body.organization_id,
    childName: 'Stepped Super Agency',
    amount: '1500',
    staleFrom: Date.now() + STEP_UP_WINDOW_SECONDS * 1000 + 250,
  });

  // Asked: the admin has no authenticator app, so the dialog takes the password.
  await dialog.getByLabel(MESSAGES.stepUp.passwordLabel).waitFor();
  await expectAccessible(page, 'step-up dialog');
  await dialog.getByLabel(MESSAGES.stepUp.passwordLabel).fill('not the password');
  await dialog.getByRole('button', { name: MESSAGES.stepUp.submit }).click();
  await dialog.getByText(MESSAGES.auth.stepUpPasswordWrong).waitFor();
  await dialog.getByLabel(MESSAGES.stepUp.passwordLabel).fill(ADMIN.password);
  await dialog.getByRole('button', { name: MESSAGES.stepUp.submit }).click();

  // The allocation went through as if nothing had happened.
  const result = page.getByRole('status', { name: p.allocatedTitle });
  await result.waitFor();
  expect(await result.textContent()).toContain('1,500.00 credits');
  const billing = await server.api<{ billing_settings: { credit_balance: string } }>(`/api/organizations/${child.id}/billing`, {
    token: adminToken,
  });
  expect(billing.body.billing_settings.credit_balance).toBe('1500.00');
});
