import { expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, signInWithForm, useJourney } from './harness.ts';
import { MESSAGES } from './wording.ts';

interface Outbox {
  messages: { id: string; to: string; subject: string; text: string; link: string | null; created_at: string }[];
}

const journey = useJourney();

it('resets the password through the e-mailed link and signs in with the new one', async () => {
  const { server } = journey;
  const newPassword = 'a brand new password 2';
  const token = await server.signIn(ADMIN.email, ADMIN.password);
  const page = await journey.freshPage();

  await page.goto(server.url('/login'));
  await page.getByRole('link', { name: MESSAGES.authPages.forgotPassword }).click();
  await page.waitForURL('**/reset-password');
  // The router keeps the login page on screen while the next page's code loads, and it
  // has an Email field too: wait for the reset form itself.
  const send = page.getByRole('button', { name: MESSAGES.authPages.sendResetLink });
  await send.waitFor();
  await expectAccessible(page, 'reset password page');
  await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
  await send.click();
  await page.getByRole('alert').filter({ hasText: MESSAGES.auth.resetSent }).waitFor();

  // The mail is sent after the answer: wait for it to reach the outbox.
  let link: string | null | undefined;
  await expect
    .poll(
      async () => {
        const outbox = await server.api<Outbox>('/api/debug/outbox', { token });
        expect(outbox.status).toBe(200);
        link = outbox.body.messages.find((message) => message.to === ADMIN.email && message.link)?.link;
        return link;
      },
      { timeout: 10_000 },
    )
    .toMatch(/\/update-password#access_token=.+&type=recovery$/);

  await page.goto(link!);
  await page.getByLabel(MESSAGES.authPages.newPassword, { exact: true }).waitFor();
  await expectAccessible(page, 'update password page');
  await page.getByLabel(MESSAGES.authPages.newPassword, { exact: true }).fill(newPassword);
  await page.getByLabel(MESSAGES.authPages.confirmPassword, { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Update password' }).click();
  await page.waitForURL('**/login');
  await page.getByText(MESSAGES.auth.passwordUpdatedTitle).waitFor();

  await signInWithForm(page, server, ADMIN.email, newPassword);
  const old = await server.api('/api/auth/sign-in', {
    method: 'POST',
    body: { email: ADMIN.email, password: ADMIN.password },
  });
  expect(old.status).toBe(401);

  // The link is single-use.
  await page.goto(link!);
  await page.getByLabel(MESSAGES.authPages.newPassword, { exact: true }).fill('yet another password 3');
  await page.getByLabel(MESSAGES.authPages.confirmPassword, { exact: true }).fill('yet another password 3');
  await page.getByRole('button', { name: 'Update password' }).click();
  await page.getByRole('alert').waitFor();
  expect(new URL(page.url()).pathname).toBe('/update-password');
});

it('shows the Invalid Link card for a link without type=recovery', async () => {
  const page = await journey.freshPage();
  await page.goto(journey.server.url('/update-password#access_token=whatever'));
  await page.getByRole('heading', { name: MESSAGES.authPages.invalidLinkTitle }).waitFor();
  await expectAccessible(page, 'invalid reset link');
  await page.getByRole('link', { name: MESSAGES.authPages.requestNewResetLink }).click();
  await page.waitForURL('**/reset-password');
});
