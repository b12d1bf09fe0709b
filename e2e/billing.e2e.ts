import { MESSAGES, type BillingResponse, type OrganizationDetail, type UserProfile } from '@console/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, openBrowser, signInWithForm, startServer, type TestBrowser, type TestServer } from './harness.ts';

interface Outbox {
  messages: { to: string; link: string | null }[];
}

const PASSWORD = 'billing journey password 1';
const b = MESSAGES.billing;
const m = MESSAGES.billingPages;

let server: TestServer;
let browser: TestBrowser | undefined;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function createChild(token: string, name: string, orgType: string): Promise<OrganizationDetail> {
  const { status, body } = await server.api<{ organization: OrganizationDetail }>('/api/organizations', {
    method: 'POST',
    token,
    body: { name, org_type: orgType },
  });
  expect(status).toBe(201);
  return body.organization;
}

async function setLimit(token: string, organizationId: string, limit: number): Promise<void> {
  const { status } = await server.api<BillingResponse>(`/api/organizations/${organizationId}/agent-limit`, {
    method: 'PUT',
    token,
    body: { activated_agent_limit: limit },
  });
  expect(status).toBe(200);
}

/** Invites an admin into an organization, registers them through the e-mailed link and signs them in. */
async function inviteAdmin(inviterToken: string, houseToken: string, organizationId: string, role: string, email: string): Promise<string> {
  const invited = await server.api('/api/invitations', {
    method: 'POST',
    token: inviterToken,
    body: { email, role, first_name: 'Billing', last_name: 'Admin', organization_id: organizationId },
  });
  expect(invited.status).toBeLessThan(300);
  const outbox = await server.api<Outbox>('/api/debug/outbox', { token: houseToken });
  const link = outbox.body.messages.find((message) => message.to === email && message.link)?.link;
  expect(link).toBeTruthy();
  const token = new URL(link!).searchParams.get('token');
  const registered = await server.api('/api/invitations/register', { method: 'POST', body: { token, password: PASSWORD } });
  expect(registered.status).toBe(200);
  return server.signIn(email, PASSWORD);
}

it("an agency admin sets a tenant's agent limit within capacity, is refused above it, and the tenant admin sees it", async () => {
  // House (100) > super agency (50) > agency (20) > tenant, each level built by its own admin.
  const houseToken = await server.signIn(ADMIN.email, ADMIN.password);
  const me = await server.api<UserProfile>('/api/users/me', { token: houseToken });
  const houseId = me.body.organization_id;
  await setLimit(houseToken, houseId, 100);
  const superAgency = await createChild(houseToken, 'Billing Super Agency', 'super_agency');
  await setLimit(houseToken, superAgency.id, 50);
  const superToken = await inviteAdmin(houseToken, houseToken, superAgency.id, 'super_agency_admin', 'super@billing.test');
  const agency = await createChild(superToken, 'Billing Agency', 'agency');
  await setLimit(superToken, agency.id, 20);
  await inviteAdmin(superToken, houseToken, agency.id, 'agency_admin', 'agency@billing.test');
  const agencyToken = await server.signIn('agency@billing.test', PASSWORD);
  const tenant = await createChild(agencyToken, 'Billing Tenant', 'tenant');
  await inviteAdmin(agencyToken, houseToken, tenant.id, 'tenant_admin', 'tenant@billing.test');

  // The agency admin opens the tenant's billing page and sets its limit within the agency's capacity.
  browser = await openBrowser();
  let page = browser.page;
  await signInWithForm(page, server, 'agency@billing.test', PASSWORD);
  await page.goto(server.url(`/orgs/${tenant.id}/billing`));
  await page.getByRole('heading', { level: 1, name: m.billingTitle }).waitFor();
  await page.getByRole('tab', { name: m.tabAgentLimits, selected: true }).waitFor();
  await page.getByText(m.agentsUsed(0, 0)).waitFor();

  await page.getByRole('button', { name: m.adjustLimit }).click();
  let dialog = page.getByRole('dialog', { name: m.adjustTitle });
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
  await dialog.getByRole('alert').filter({ hasText: b.aboveCapacity(20) }).waitFor();
  await dialog.getByRole('button', { name: m.cancel }).click();
  await dialog.waitFor({ state: 'detached' });

  const stored = await server.api<BillingResponse>(`/api/organizations/${tenant.id}/billing`, { token: agencyToken });
  expect(stored.body.billing_settings.activated_agent_limit).toBe(10);

  // The tenant admin sees the new limit and the Good badge on /settings, with no Adjust Limit of its own.
  await browser.close();
  browser = await openBrowser({ width: 375, height: 812 });
  page = browser.page;
  await signInWithForm(page, server, 'tenant@billing.test', PASSWORD);
  await page.goto(server.url('/settings'));
  await page.getByRole('heading', { level: 1, name: m.settingsTitle }).waitFor();
  await page.getByText(m.agentsUsed(0, 10)).waitFor();
  await page.getByText(m.badgeGood, { exact: true }).waitFor();
  await page.getByText(m.adviceGood).waitFor();
  expect(await page.getByRole('button', { name: m.adjustLimit }).count()).toBe(0);
  expect(await page.getByRole('link', { name: m.manageBilling }).getAttribute('href')).toBe(`/orgs/${tenant.id}/billing`);
}, 120_000);
