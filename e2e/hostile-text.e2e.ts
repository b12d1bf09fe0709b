import type { OrganizationDetail, UserProfile } from '@console/domain';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ADMIN, signInWithForm, useJourney } from './harness.ts';

/**
 * Stored text is shown as text. An organization and a user are named with markup through
 * the API; every page that shows them renders the literal characters, injects no element,
 * fires no dialog and runs no script. The Content-Security-Policy would block the inline
 * script and handler anyway, so the DOM is checked too: that is what proves React rendered
 * text rather than markup.
 */

const ORG_NAME = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';
const FIRST_NAME = '<img src=x onerror="window.__xss=3">';
const LAST_NAME = '<script>window.__xss=4</script>';

const journey = useJourney({ browser: true });

/** The page shows `text` literally, and nothing it carries became an element or ran. */
async function expectInert(page: Page, text: string, dialogs: string[]) {
  await page.getByText(text, { exact: true }).first().waitFor();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(
    await page.locator('script:not([src])').evaluateAll((scripts) => scripts.filter((s) => s.textContent?.includes('__xss')).length),
  ).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
}

it('shows a script-bearing organization name and user name as text on the dashboard, the lists and the detail pages', async () => {
  const { server } = journey;
  const token = await server.signIn(ADMIN.email, ADMIN.password);
  const created = await server.api<{ organization: OrganizationDetail }>('/api/organizations', {
    method: 'POST',
    token,
    body: { name: ORG_NAME, description: ORG_NAME, org_type: 'super_agency' },
  });
  expect(created.status).toBe(201);
  expect(created.body.organization.name).toBe(ORG_NAME);
  const renamed = await server.api<{ user: UserProfile }>('/api/users/me', {
    method: 'PATCH',
    token,
    body: { first_name: FIRST_NAME, last_name: LAST_NAME },
  });
  expect(renamed.status).toBe(200);

  const { page } = journey.browser;
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  await signInWithForm(page, server, ADMIN.email, ADMIN.password);
  // The dashboard's recently created list.
  await page.getByRole('link', { name: ORG_NAME }).first().waitFor();
  await expectInert(page, ORG_NAME, dialogs);

  await page.goto(server.url('/orgs'));
  await page.getByRole('link', { name: ORG_NAME }).first().waitFor();
  await expectInert(page, ORG_NAME, dialogs);

  await page.goto(server.url(`/orgs/${created.body.organization.id}`));
  await page.getByRole('heading', { level: 1, name: ORG_NAME }).waitFor();
  await expectInert(page, ORG_NAME, dialogs);

  await page.goto(server.url(`/users/${renamed.body.user.id}`));
  await expectInert(page, `${FIRST_NAME} ${LAST_NAME}`, dialogs);
});
