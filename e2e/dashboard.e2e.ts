import { type Dashboard, type UserProfile } from '@console/domain';
import { expect, it } from 'vitest';
import { ADMIN, createChild, inviteAndRegister, signInWithForm, useJourney } from './harness.ts';
import { MESSAGES } from './wording.ts';

const PASSWORD = 'dashboard journey password 1';
const m = MESSAGES.dashboardPages;
const d = MESSAGES.debugPages;
const TENANT_ADMIN = 'tenant.admin@dashboard.test';

const journey = useJourney();

async function ok<T>(path: string, token: string, body?: unknown): Promise<T> {
  const response = await journey.server.api<T>(path, { method: body === undefined ? 'GET' : 'POST', token, body });
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body;
}

it('a house admin sees the API figures on the dashboard and opens /debug with the outbox; a tenant admin is refused', async () => {
  const { server } = journey;
  const houseToken = await server.signIn(ADMIN.email, ADMIN.password);
  const me = await ok<UserProfile>('/api/users/me', houseToken);
  const superAgency = await createChild(server, houseToken, 'Dashboard Super', 'super_agency');
  await ok('/api/credits/adjustments', houseToken, { direction: 'increase', amount: '500', reason: 'Journey top-up' });
  await ok('/api/credits/allocations', houseToken, { from_org_id: me.organization_id, to_org_id: superAgency.id, amount: '120.50' });
  // Metered usage: an agent of the catalog at 1 credit a unit, activated for the house, and an event of 30 units.
  const limit = await server.api(`/api/organizations/${me.organization_id}/agent-limit`, {
    method: 'PUT',
    token: houseToken,
    body: { activated_agent_limit: 5 },
  });
  expect(limit.status).toBe(200);
  const { agent_type } = await ok<{ agent_type: { id: string } }>('/api/agent-types', houseToken, {
    code: 'journey-bot',
    name: 'Journey Bot',
    kind: 'assistant',
    unit: 'run',
    price: '1',
  });
  await ok(`/api/organizations/${me.organization_id}/agents`, houseToken, { agent_type_id: agent_type.id });
  const usage = await ok<{ accepted: number }>('/api/credits/usage', houseToken, {
    events: [
      { id: 'journey-1', organization_id: me.organization_id, agent: 'journey-bot', units: '30', occurred_at: new Date().toISOString() },
    ],
  });
  expect(usage.accepted).toBe(1);

  // A tenant admin, down the tree: super agency admin → agency → agency admin → tenant → tenant admin.
  const superToken = await inviteAndRegister(server, {
    inviterToken: houseToken,
    houseToken,
    organizationId: superAgency.id,
    role: 'super_agency_admin',
    email: 'super.admin@dashboard.test',
    password: PASSWORD,
  });
  const agency = await createChild(server, superToken, 'Dashboard Agency', 'agency');
  const agencyToken = await inviteAndRegister(server, {
    inviterToken: superToken,
    houseToken,
    organizationId: agency.id,
    role: 'agency_admin',
    email: 'agency.admin@dashboard.test',
    password: PASSWORD,
  });
  const tenant = await createChild(server, agencyToken, 'Dashboard Tenant', 'tenant');
  const tenantToken = await inviteAndRegister(server, {
    inviterToken: agencyToken,
    houseToken,
    organizationId: tenant.id,
    role: 'tenant_admin',
    email: TENANT_ADMIN,
    password: PASSWORD,
  });

  const api = await ok<Dashboard>('/api/dashboard', houseToken);
  expect(api.credits.balance).toBe('349.50');
  expect(api.credits.usage.current_period).toBe('30.00');
  expect(api.credits.allocated).toBe('120.50');
  expect(api.organizations.total).toBe(3);
  expect(api.organizations.by_type).toMatchObject({ super_agency: 1, agency: 1, tenant: 1 });
  // All of it used today: the average is taken over the one day since the first consumption,
  // so the next month is forecast at 30 × 30.00 and the balance lasts 349.50 ÷ 900.00 months.
  expect(api.credits.forecast.next_month).toBe('900.00');
  expect(api.credits.depletion_months).toBe(0.4);

  const page = await journey.freshPage();
  await signInWithForm(page, server, ADMIN.email, ADMIN.password);
  await page.getByRole('heading', { level: 1, name: me.organization.name }).waitFor();
  await page.getByText(m.performanceMetrics).waitFor();
  expect(await page.getByTestId('summary-balance').textContent()).toBe(`${api.credits.balance} credits`);
  // A parent's card leads with its subtree's usage; its own is a click away.
  expect(await page.getByTestId('summary-monthly-usage').textContent()).toBe(`${api.credits.subtree_usage.current_period} credits`);
  expect(await page.getByTestId('summary-depletion').textContent()).toBe(m.depletionMonths(api.credits.depletion_months!));
  expect(await page.getByTestId('metric-organizations').textContent()).toBe(String(api.organizations.total));
  expect(await page.getByTestId('status-active').textContent()).toBe(String(api.organizations.by_status.active));
  expect(await page.getByTestId('flow-allocated').textContent()).toBe(`${api.credits.allocated} credits`);
  await page.getByRole('list', { name: 'Super Agency organizations' }).getByRole('link', { name: 'Dashboard Super' }).waitFor();

  // The Credits tab: the chart chunk loads, and Allocate Credits opens the allocation page.
  await page.getByRole('tab', { name: m.tabCredits }).click();
  await page.locator('.recharts-responsive-container').waitFor();
  await page.getByRole('link', { name: m.allocateCredits }).click();
  await page.waitForURL(`**/orgs/${me.organization_id}/allocate-credits`);

  // The Debug item of the profile menu, then the Outbox tab.
  await page.getByRole('button', { name: new RegExp(ADMIN.email) }).click();
  await page.getByRole('menuitem', { name: MESSAGES.shell.debug }).click();
  await page.waitForURL('**/debug');
  await page.getByText(d.verified, { exact: true }).waitFor();
  await page.getByRole('tab', { name: d.tabOutbox }).click();
  const outbox = page.getByRole('table', { name: 'Outbox messages' });
  await outbox.getByRole('cell', { name: TENANT_ADMIN }).waitFor();

  // The tenant admin: no Debug menu item, Access Denied on /debug, and the server refuses too.
  const tenantPage = await journey.freshPage();
  await signInWithForm(tenantPage, server, TENANT_ADMIN, PASSWORD);
  await tenantPage.getByRole('heading', { level: 1, name: 'Dashboard Tenant' }).waitFor();
  await tenantPage.getByRole('button', { name: new RegExp(TENANT_ADMIN) }).click();
  await tenantPage.getByRole('menuitem', { name: MESSAGES.shell.logOut }).waitFor();
  expect(await tenantPage.getByRole('menuitem', { name: MESSAGES.shell.debug }).count()).toBe(0);
  await tenantPage.keyboard.press('Escape');
  await tenantPage.goto(server.url('/debug'));
  await tenantPage.getByText(MESSAGES.auth.accessDenied).waitFor();
  expect(await tenantPage.getByRole('tab').count()).toBe(0);
  expect((await server.api(`/api/organizations/${tenant.id}/verify-children`, { token: tenantToken })).status).toBe(403);
  expect((await server.api('/api/debug/outbox', { token: tenantToken })).status).toBe(403);
  // Its dashboard is its own; the house is outside its scope.
  expect((await server.api(`/api/dashboard?organization_id=${me.organization_id}`, { token: tenantToken })).status).toBe(404);
});
