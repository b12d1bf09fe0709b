import { readFileSync } from 'node:fs';
import { MESSAGES, type AllocationResult, type OrganizationDetail, type UserProfile } from '@console/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, openBrowser, signInWithForm, startServer, type TestBrowser, type TestServer } from './harness.ts';

interface Outbox {
  messages: { to: string; link: string | null }[];
}

const PASSWORD = 'credits journey password 1';
const c = MESSAGES.credits;
const p = MESSAGES.creditPages;

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

/** Invites an admin into an organization, registers them through the e-mailed link and signs them in. */
async function inviteAdmin(inviterToken: string, houseToken: string, organizationId: string, role: string, email: string): Promise<string> {
  const invited = await server.api('/api/invitations', {
    method: 'POST',
    token: inviterToken,
    body: { email, role, first_name: 'Journey', last_name: 'Admin', organization_id: organizationId },
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

/** An allocation through the API, with an Idempotency-Key as the console sends it. */
async function allocate(token: string, fromOrgId: string, toOrgId: string, amount: string, notes: string): Promise<AllocationResult> {
  const response = await fetch(server.url('/api/credits/allocations'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({ from_org_id: fromOrgId, to_org_id: toOrgId, amount, notes }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as AllocationResult;
}

// A long journey through four organizations: more time than one page's test.
it('moves credits from a topped-up house down to a tenant, whose admin sees and exports the entry', { timeout: 150_000 }, async () => {
  const houseToken = await server.signIn(ADMIN.email, ADMIN.password);
  const me = await server.api<UserProfile>('/api/users/me', { token: houseToken });
  const houseId = me.body.organization_id!;
  const superAgency = await createChild(houseToken, 'Super Agency One', 'super_agency');

  browser = await openBrowser();
  const { page } = browser;

  // The house admin tops up the house in the console.
  await signInWithForm(page, server, ADMIN.email, ADMIN.password);
  await page.goto(server.url('/credit-ledger'));
  await page.getByRole('heading', { level: 2, name: c.panelTitle }).waitFor();
  await page.getByRole('button', { name: p.adjustBalance }).click();
  const dialog = page.getByRole('dialog', { name: p.adjustBalance });
  await dialog.getByLabel('Amount').fill('5000');
  await dialog.getByLabel('Reason').fill('Journey top-up');
  await dialog.getByRole('button', { name: 'Save adjustment' }).click();
  await page.getByText(p.adjusted).waitFor();
  await page.getByTestId('credit-balance').filter({ hasText: '5,000.00 credits' }).waitFor();
  await page.getByRole('cell', { name: 'Journey top-up' }).waitFor();

  // ...and allocates to the super agency in the console.
  await page.getByRole('link', { name: p.allocateCredits }).click();
  await page.waitForURL(`**/orgs/${houseId}/allocate-credits`);
  await page.getByLabel('Child organization').selectOption(superAgency.id);
  await page.getByLabel('Amount').fill('1000');
  await page.getByLabel('Notes (optional)').fill('Q1 budget');
  await page.getByRole('button', { name: p.allocateCredits }).click();
  const result = page.getByRole('status', { name: p.allocatedTitle });
  await result.waitFor();
  expect(await result.textContent()).toContain('4,000.00 credits');
  expect(await result.textContent()).toContain('1,000.00 credits');

  await page.goto(server.url('/credit-ledger'));
  await page.getByRole('cell', { name: 'Allocated to Super Agency One — Q1 budget' }).waitFor();
  await page.getByTestId('credit-balance').filter({ hasText: '4,000.00 credits' }).waitFor();

  // The chain below: each admin is invited and registered, then allocates down through the API.
  const superToken = await inviteAdmin(houseToken, houseToken, superAgency.id, 'super_agency_admin', 'super.admin@example.test');
  const agency = await createChild(superToken, 'Agency One', 'agency');
  await allocate(superToken, superAgency.id, agency.id, '400', 'Agency budget');
  const agencyToken = await inviteAdmin(superToken, houseToken, agency.id, 'agency_admin', 'agency.admin@example.test');
  const tenant = await createChild(agencyToken, 'Tenant One', 'tenant');
  const toTenant = await allocate(agencyToken, agency.id, tenant.id, '150.25', 'Tenant launch');
  expect(toTenant).toMatchObject({ from_balance: '249.75', to_balance: '150.25' });
  await inviteAdmin(agencyToken, houseToken, tenant.id, 'tenant_admin', 'tenant.admin@example.test');

  // The tenant admin signs in, sees the allocation received and exports it.
  await browser.close();
  browser = await openBrowser();
  const tenantPage = browser.page;
  await signInWithForm(tenantPage, server, 'tenant.admin@example.test', PASSWORD);
  await tenantPage.goto(server.url('/credit-ledger'));
  const row = tenantPage.getByRole('row').filter({ hasText: 'Received from Agency One — Tenant launch' });
  await row.waitFor();
  expect(await row.textContent()).toContain('Allocation received');
  expect(await row.textContent()).toContain('150.25 credits');
  await tenantPage.getByTestId('credit-balance').filter({ hasText: '150.25 credits' }).waitFor();
  // A tenant has no children: no Allocate Credits; only house admins adjust.
  expect(await tenantPage.getByRole('link', { name: p.allocateCredits }).count()).toBe(0);
  expect(await tenantPage.getByRole('button', { name: p.adjustBalance }).count()).toBe(0);

  await tenantPage.getByLabel('Type').selectOption('allocation_received');
  await row.waitFor();
  const [download] = await Promise.all([
    tenantPage.waitForEvent('download'),
    tenantPage.getByRole('button', { name: p.exportTransactions }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^credit-ledger-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8');
  const lines = csv.trim().split(/\r\n/);
  expect(lines[0]).toBe('created_at,entry_type,amount,balance_after,notes,counterparty_org_id,transaction_group,external_ref,id');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(',allocation_received,150.25,150.25,Tenant launch,');
  expect(lines[1]).toContain(agency.id);
});
