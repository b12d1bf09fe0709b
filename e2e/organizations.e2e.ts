import { type Invitation } from '@console/domain';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, signInWithForm, useJourney } from './harness.ts';
import { MESSAGES } from './wording.ts';

/**
 * Each level creates the level below it through the console (only direct children may
 * be created), a parent watches its child's balance move on its list without a reload, one
 * organization is renamed, and a tenant admin is refused the create form.
 */

const journey = useJourney({ browser: true });

const PASSWORD = 'e2e member password 1';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Invites someone through the API as `inviterToken`, registers them with the link's token, and returns their e-mail. */
async function inviteAndRegister(inviterToken: string, organizationId: string, role: string, email: string): Promise<string> {
  const invited = await journey.server.api<{ invitation: Invitation }>('/api/invitations', {
    method: 'POST',
    token: inviterToken,
    body: { email, first_name: 'Test', last_name: 'Person', role, organization_id: organizationId },
  });
  expect(invited.status).toBe(201);
  const linked = await journey.server.api<{ link: string }>(`/api/invitations/${invited.body.invitation.id}/link`, {
    method: 'POST',
    token: inviterToken,
  });
  expect(linked.status).toBe(200);
  const token = new URL(linked.body.link).searchParams.get('token');
  const registered = await journey.server.api('/api/invitations/register', { method: 'POST', body: { token, password: PASSWORD } });
  expect(registered.status).toBe(200);
  return email;
}

/** Signs the browser out (the refresh cookie is the session) and in as someone else. */
async function signInAs(page: Page, email: string, password: string) {
  await journey.browser.context.clearCookies();
  await signInWithForm(page, journey.server, email, password);
}

/** Fills the create form at `{base}/create` and returns the new organization's id from the detail URL. */
async function createThroughForm(page: Page, base: string, name: string, description: string): Promise<string> {
  await page.goto(journey.server.url(base));
  await page.getByRole('link', { name: 'New Organization' }).click();
  await page.waitForURL(`**${base}/create`);
  await page.getByLabel('Name', { exact: true }).waitFor();
  await expectAccessible(page, `${base}/create`);
  await page.getByLabel('Name', { exact: true }).fill(name);
  // The browser's own Back over a form with edits asks first: staying keeps what was typed.
  const asked: string[] = [];
  page.once('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goBack();
  await expect.poll(() => asked).toEqual([MESSAGES.forms.unsavedChanges]);
  await page.waitForURL(`**${base}/create`);
  expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(name);
  await page.getByLabel('Description (optional)').fill(description);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await page.waitForURL(new RegExp(`${base}/${UUID}$`));
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.getByText(description).waitFor();
  return new URL(page.url()).pathname.split('/').at(-1)!;
}

it('creates a super agency, an agency and a tenant level by level, renames one, and refuses a tenant the create form', async () => {
  const { server } = journey;
  const { page } = journey.browser;

  // The house admin creates a super agency from /organizations.
  await signInWithForm(page, server, ADMIN.email, ADMIN.password);
  const superAgencyId = await createThroughForm(page, '/organizations', 'Acme Super Agency', 'Sells through agencies');
  await page.getByText('Super Agency', { exact: true }).first().waitFor();
  await page.goto(server.url('/organizations'));
  const children = page.getByRole('table', { name: 'Child Organizations' });
  await children.getByRole('link', { name: 'Acme Super Agency' }).waitFor();

  // Its admin, invited through the API, creates an agency from /orgs.
  const adminToken = await server.signIn(ADMIN.email, ADMIN.password);
  const superAgencyAdmin = await inviteAndRegister(adminToken, superAgencyId, 'super_agency_admin', 'super.admin@example.test');
  await signInAs(page, superAgencyAdmin, PASSWORD);
  // /organizations belongs to house roles: others land on /orgs.
  await page.goto(server.url('/organizations'));
  await page.waitForURL('**/orgs');
  const agencyId = await createThroughForm(page, '/orgs', 'Northwind Agency', 'Agency of the north');

  // The agency's admin creates a tenant.
  const superAgencyToken = await server.signIn(superAgencyAdmin, PASSWORD);
  const agencyAdmin = await inviteAndRegister(superAgencyToken, agencyId, 'agency_admin', 'agency.admin@example.test');
  await signInAs(page, agencyAdmin, PASSWORD);
  const tenantId = await createThroughForm(page, '/orgs', 'Harbor Tenant', 'Tenant at the harbour');
  await page.goto(server.url('/orgs'));
  const tenantRow = page.getByRole('table', { name: 'Child Organizations' }).getByRole('row', { name: /Harbor Tenant/ });
  await tenantRow.getByRole('link', { name: 'Harbor Tenant' }).waitFor();

  // ...and renames it.
  await page.goto(server.url(`/orgs/${tenantId}`));
  // By its address: the team card on the same page has Edit links of its own.
  await page.locator(`a[href="/orgs/${tenantId}/edit"]`).click();
  await page.waitForURL(`**/orgs/${tenantId}/edit`);
  await page.getByLabel('Name', { exact: true }).waitFor();
  await expectAccessible(page, 'edit organization');
  await page.getByLabel('Name', { exact: true }).fill('Harbor Tenant East');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.waitForURL(new RegExp(`/orgs/${tenantId}$`));
  await page.getByRole('heading', { level: 1, name: 'Harbor Tenant East' }).waitFor();
  const renamed = await server.api<{ organization: { name: string } }>(`/api/organizations/${tenantId}`, {
    token: await server.signIn(agencyAdmin, PASSWORD),
  });
  expect(renamed.body.organization.name).toBe('Harbor Tenant East');

  // A tenant admin cannot create organizations.
  const agencyToken = await server.signIn(agencyAdmin, PASSWORD);
  const tenantAdmin = await inviteAndRegister(agencyToken, tenantId, 'tenant_admin', 'tenant.admin@example.test');
  await signInAs(page, tenantAdmin, PASSWORD);
  await page.goto(server.url('/orgs/create'));
  await page.getByText(MESSAGES.organizations.permissionDenied).waitFor();
  await page.getByText(MESSAGES.organizations.cannotCreateChildren('tenant')).waitFor();
  expect(await page.getByRole('button', { name: 'Create', exact: true }).count()).toBe(0);
  await expectAccessible(page, 'create form refused to a tenant admin');
  await page.goto(server.url('/orgs'));
  await page.getByText('No child organizations yet.').waitFor();
  expect(await page.getByRole('link', { name: 'New Organization' }).count()).toBe(0);
}, 150_000);
