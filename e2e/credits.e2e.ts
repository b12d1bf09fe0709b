import { readFileSync } from 'node:fs';
import { type AllocationResult, type UserProfile } from '@console/domain';
import { expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, createChild, inviteAndRegister, signInWithForm, useJourney } from './harness.ts';
import { MESSAGES } from './wording.ts';

const PASSWORD = 'credits journey password 1';
const c = MESSAGES.credits;
const p = MESSAGES.creditPages;

const journey = useJourney();

/** An allocation through the API, with an Idempotency-Key as the console sends it. */
async function allocate(token: string, fromOrgId: string, toOrgId: string, amount: string, notes: string): Promise<AllocationResult> {
  const response = await fetch(journey.server.url('/api/credits/allocations'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({ from_org_id: fromOrgId, to_org_id: toOrgId, amount, notes }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as AllocationResult;
}

// A long journey through four organizations: more time than one page's test.
it('moves credits from a topped-up house down to a tenant, whose admin sees and exports the entry', { timeout: 150_000 }, async () => {
  const { server } = journey;
  const houseToken = await server.signIn(ADMIN.email, ADMIN.password);
  const me = await server.api<UserProfile>('/api/users/me', { token: houseToken });
  const houseId = me.body.organization_id!;
  const superAgency = await createChild(server, houseToken, 'Super Agency One', 'super_agency');

  const page = await journey.freshPage();

  // The house admin tops up the house in the console.
  await signInWithForm(page, server, ADMIN.email, ADMIN.password);
  await page.goto(server.url('/credit-ledger'));
  await page.getByRole('heading', { level: 2, name: c.panelTitle }).waitFor();
  await page.getByRole('button', { name: p.adjustBalance }).click();
  const dialog = page.getByRole('dialog', { name: p.adjustBalance });
  await dialog.getByLabel('Amount').waitFor();
  await expectAccessible(page, 'Adjust balance dialog');
  await dialog.getByLabel('Amount').fill('5000');
  await dialog.getByLabel('Reason').fill('Journey top-up');
  await dialog.getByRole('button', { name: 'Save adjustment' }).click();
  await page.getByText(p.adjusted).waitFor();
  await page.getByTestId('credit-balance').filter({ hasText: '5,000.00 credits' }).waitFor();
  await page.getByRole('cell', { name: 'Journey top-up' }).waitFor();

  // ...and allocates to the super agency in the console.
  await page.getByRole('link', { name: p.allocateCredits }).click();
  await page.waitForURL(`**/orgs/${houseId}/allocate-credits`);
  await page.getByLabel('Child organization').waitFor();
  await expectAccessible(page, 'allocate credits');
  await page.getByLabel('Child organization').selectOption(superAgency.id);
  await page.getByLabel('Amount').fill('1000');
  await page.getByLabel('Notes (optional)').fill('Q1 budget');
  await page.getByRole('button', { name: p.allocateCredits }).click();
  // The review step: what moves and what the house keeps, before anything is sent.
  const review = page.getByRole('region', { name: p.reviewTitle });
  await review.getByText(/^Move 1,000\.00 credits from .+ to Super Agency One; .+ keeps 4,000\.00\.$/).waitFor();
  await expectAccessible(page, 'allocation review');
  await review.getByRole('button', { name: p.confirmAllocation }).click();
  const result = page.getByRole('status', { name: p.allocatedTitle });
  await result.waitFor();
  expect(await result.textContent()).toContain('4,000.00 credits');
  expect(await result.textContent()).toContain('1,000.00 credits');
  await expectAccessible(page, 'allocation result');

  await page.goto(server.url('/credit-ledger'));
  // The cell also holds the allocation's Reverse button.
  await page.getByRole('cell', { name: /allocated 1,000\.00 credits to Super Agency One: Q1 budget/ }).waitFor();
  await page.getByTestId('credit-balance').filter({ hasText: '4,000.00 credits' }).waitFor();

  // Sent to the wrong place: within a day the house admin reverses it from the ledger, with a
  // reason, and the balance comes back on screen.
  await page.getByRole('button', { name: p.reverseLabel('1,000.00', 'Super Agency One') }).click();
  const reversal = page.getByRole('dialog', { name: p.reverseTitle });
  await reversal.getByText(/^Move 1,000\.00 credits back from Super Agency One to /).waitFor();
  await expectAccessible(page, 'reverse allocation dialog');
  await reversal.getByLabel('Reason').fill('Wrong budget line');
  await reversal.getByRole('button', { name: p.confirmReversal }).click();
  await page.getByTestId('credit-balance').filter({ hasText: '5,000.00 credits' }).waitFor();
  await page
    .getByRole('cell', { name: /reversed an allocation to Super Agency One: 1,000\.00 credits returned: Wrong budget line$/ })
    .waitFor();
  await page.getByText(p.reversed, { exact: true }).waitFor();
  expect(await page.getByRole('button', { name: p.reverseLabel('1,000.00', 'Super Agency One') }).count()).toBe(0);
  // The budget goes again, through the API.
  await allocate(houseToken, houseId, superAgency.id, '1000', 'Q1 budget, again');

  // The chain below: each admin is invited and registered, then allocates down through the API.
  const superToken = await inviteAndRegister(server, {
    inviterToken: houseToken,
    houseToken,
    organizationId: superAgency.id,
    role: 'super_agency_admin',
    email: 'super.admin@example.test',
    password: PASSWORD,
  });
  const agency = await createChild(server, superToken, 'Agency One', 'agency');
  await allocate(superToken, superAgency.id, agency.id, '400', 'Agency budget');
  const agencyToken = await inviteAndRegister(server, {
    inviterToken: superToken,
    houseToken,
    organizationId: agency.id,
    role: 'agency_admin',
    email: 'agency.admin@example.test',
    password: PASSWORD,
  });
  const tenant = await createChild(server, agencyToken, 'Tenant One', 'tenant');
  const toTenant = await allocate(agencyToken, agency.id, tenant.id, '150.25', 'Tenant launch');
  expect(toTenant).toMatchObject({ from_balance: '249.75', to_balance: '150.25' });
  await inviteAndRegister(server, {
    inviterToken: agencyToken,
    houseToken,
    organizationId: tenant.id,
    role: 'tenant_admin',
    email: 'tenant.admin@example.test',
    password: PASSWORD,
  });

  // The tenant admin signs in, sees the allocation received and exports it.
  const tenantPage = await journey.freshPage();
  await signInWithForm(tenantPage, server, 'tenant.admin@example.test', PASSWORD);
  await tenantPage.goto(server.url('/credit-ledger'));
  const row = tenantPage.getByRole('row').filter({ hasText: /Received 150\.25 credits from Agency One, allocated by .+: Tenant launch/ });
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
  expect(lines[0]).toBe(
    'created_at,entry_type,amount,balance_after,description,actor,actor_email,counterparty,counterparty_org_id,notes,agent,units,transaction_group,reversed_by,external_ref,id',
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(',allocation_received,150.25,150.25,');
  expect(lines[1]).toContain(',Tenant launch,');
  expect(lines[1]).toContain(agency.id);
});
