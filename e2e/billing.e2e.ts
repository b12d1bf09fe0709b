import { type BillingResponse, type UserProfile } from '@console/domain';
import { expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, createChild, inviteAndRegister, signInWithForm, useJourney } from './harness.ts';
import { MESSAGES } from './wording.ts';

const PASSWORD = 'billing journey password 1';
const b = MESSAGES.billing;
const m = MESSAGES.billingPages;

const journey = useJourney();

async function setLimit(token: string, organizationId: string, limit: number): Promise<void> {
  const { status } = await journey.server.api<BillingResponse>(`/api/organizations/${organizationId}/agent-limit`, {
    method: 'PUT',
    token,
    body: { activated_agent_limit: limit },
  });
  expect(status).toBe(200);
}

it("an agency admin sets a tenant's agent limit within capacity, is refused above it, and the tenant admin sees it", async () => {
  const { server } = journey;
  // House (100) > super agency (50) > agency (20) > tenant, each level built by its own admin.
  const houseToken = await server.signIn(ADMIN.email, ADMIN.password);
  const me = await server.api<UserProfile>('/api/users/me', { token: houseToken });
  const houseId = me.body.organization_id;
  await setLimit(houseToken, houseId, 100);
  const superAgency = await createChild(server, houseToken, 'Billing Super Agency', 'super_agency');
  await setLimit(houseToken, superAgency.id, 50);
  const superToken = await inviteAndRegister(server, {
    inviterToken: houseToken,
    houseToken,
    organizationId: superAgency.id,
    role: 'super_agency_admin',
    email: 'super@billing.test',
    password: PASSWORD,
  });
  const agency = await createChild(server, superToken, 'Billing Agency', 'agency');
  await setLimit(superToken, agency.id, 20);
  await inviteAndRegister(server, {
    inviterToken: superToken,
    houseToken,
    organizationId: agency.id,
    role: 'agency_admin',
    email: 'agency@billing.test',
    password: PASSWORD,
  });
  const agencyToken = await server.signIn('agency@billing.test', PASSWORD);
  const tenant = await createChild(server, agencyToken, 'Billing Tenant', 'tenant');
  await inviteAndRegister(server, {
    inviterToken: agencyToken,
    houseToken,
    organizationId: tenant.id,
    role: 'tenant_admin',
    email: 'tenant@billing.test',
    password: PASSWORD,
  });

  // The agency admin opens the tenant's billing page and sets its limit within the agency's capacity.
  let page = await journey.freshPage();
  await signInWithForm(page, server, 'agency@billing.test', PASSWORD);
  await page.goto(server.url(`/orgs/${tenant.id}/billing`));
  await page.getByRole('heading', { level: 1, name: m.billingTitle }).waitFor();
  await page.getByRole('tab', { name: m.tabAgentLimits, selected: true }).waitFor();
  await page.getByText(m.agentsUsed(0, 0)).waitFor();

  await page.getByRole('button', { name: m.adjustLimit }).click();
  let dialog = page.getByRole('dialog', { name: m.adjustTitle });
  await dialog.getByLabel(m.newLimitLabel).waitFor();
  await expectAccessible(page, 'Adjust Limit dialog');
  await dialog.getByLabel(m.newLimitLabel).fill('10');
  await dialog.getByRole('button', { name: m.updateLimit }).click();
  await page.getByText(b.updated).waitFor();
  await page.getByText(b.newLimit(10)).waitFor();
  // The page reloads 1.5 s after the save and shows the stored limit.
  await page.waitForEvent('load', { timeout: 10_000 });
  await page.getByText(m.agentsUsed(0, 10)).waitFor();

  // Above the agency's capacity (20 for this only child) the server refuses, and the dialog says why.
  await page.getByRole('button', { name: m.adjustLimit }).click();
  dialog = page.getByRole('dialog', { name: m.adjustTitle });
  expect(await dialog.getByLabel(m.currentLimit).inputValue()).toBe('10');
  await dialog.getByLabel(m.newLimitLabel).fill('25');
  await dialog.getByRole('button', { name: m.updateLimit }).click();
  await dialog
    .getByRole('alert')
    .filter({ hasText: b.aboveCapacity(20) })
    .waitFor();
  await expectAccessible(page, 'Adjust Limit dialog with the refusal');
  await dialog.getByRole('button', { name: m.cancel }).click();
  await dialog.waitFor({ state: 'detached' });

  const stored = await server.api<BillingResponse>(`/api/organizations/${tenant.id}/billing`, { token: agencyToken });
  expect(stored.body.billing_settings.activated_agent_limit).toBe(10);

  // The tenant admin sees the new limit and the Good badge on /settings, with no Adjust Limit of its own.
  page = await journey.freshPage({ width: 375, height: 812 });
  await signInWithForm(page, server, 'tenant@billing.test', PASSWORD);
  await page.goto(server.url('/settings'));
  await page.getByRole('heading', { level: 1, name: m.settingsTitle }).waitFor();
  await page.getByText(m.agentsUsed(0, 10)).waitFor();
  await page.getByText(m.badgeGood, { exact: true }).waitFor();
  await page.getByText(m.adviceGood).waitFor();
  expect(await page.getByRole('button', { name: m.adjustLimit }).count()).toBe(0);
  expect(await page.getByRole('link', { name: m.manageBilling }).getAttribute('href')).toBe(`/orgs/${tenant.id}/billing`);
}, 120_000);
