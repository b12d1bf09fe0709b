import { type UserProfile } from '@console/domain';
import { expect, it } from 'vitest';
import { ADMIN, createChild, inviteAndRegister, signInWithForm, useJourney } from './harness.ts';

const PASSWORD = 'activity journey password 1';

const journey = useJourney();

async function allocate(token: string, fromOrgId: string, toOrgId: string, amount: string, notes: string) {
  const response = await journey.server.api('/api/credits/allocations', {
    method: 'POST',
    token,
    body: { from_org_id: fromOrgId, to_org_id: toOrgId, amount, notes },
  });
  expect(response.status).toBe(200);
}

// Who moved these credits, and when? An allocation two levels below the house, answered by
// the house admin through the activity log and through the child's ledger; the tenant's admin
// sees its own activity and nothing of its parent's.
it('the house admin finds who allocated two levels down; a tenant admin sees only its own activity', { timeout: 180_000 }, async () => {
  const { server } = journey;
  const houseToken = await server.signIn(ADMIN.email, ADMIN.password);
  const me = await server.api<UserProfile>('/api/users/me', { token: houseToken });
  const houseId = me.body.organization_id!;
  expect(
    (
      await server.api('/api/credits/adjustments', {
        method: 'POST',
        token: houseToken,
        body: { direction: 'increase', amount: '1000', reason: 'Activity top-up' },
      })
    ).status,
  ).toBe(200);
  const superAgency = await createChild(server, houseToken, 'Activity Super', 'super_agency');
  await allocate(houseToken, houseId, superAgency.id, '500', 'Super budget');
  const superToken = await inviteAndRegister(server, {
    inviterToken: houseToken,
    houseToken,
    organizationId: superAgency.id,
    role: 'super_agency_admin',
    email: 'activity.super@example.test',
    password: PASSWORD,
  });
  const agency = await createChild(server, superToken, 'Activity Agency', 'agency');
  await allocate(superToken, superAgency.id, agency.id, '200', 'Agency budget');
  const agencyToken = await inviteAndRegister(server, {
    inviterToken: superToken,
    houseToken,
    organizationId: agency.id,
    role: 'agency_admin',
    email: 'activity.agency@example.test',
    password: PASSWORD,
  });
  const tenant = await createChild(server, agencyToken, 'Activity Tenant', 'tenant');
  await allocate(agencyToken, agency.id, tenant.id, '75.50', 'Tenant pilot');
  await inviteAndRegister(server, {
    inviterToken: agencyToken,
    houseToken,
    organizationId: tenant.id,
    role: 'tenant_admin',
    email: 'activity.tenant@example.test',
    password: PASSWORD,
  });

  // The house admin opens Activity from the navigation and narrows it to allocations.
  const page = await journey.freshPage();
  await signInWithForm(page, server, ADMIN.email, ADMIN.password);
  await page.getByRole('link', { name: 'Activity' }).first().click();
  await page.waitForURL('**/activity');
  await page.getByLabel('Action').selectOption('credits.allocate');
  await page.waitForURL('**/activity?action=credits.allocate');
  const row = page.getByRole('row').filter({ hasText: 'allocated 75.50 credits to Activity Tenant (Tenant pilot)' });
  await row.waitFor();
  const text = (await row.textContent()) ?? '';
  expect(text).toContain('activity.agency@example.test');
  expect(text).toContain('Activity Agency');
  expect(text).toMatch(/\d{4} \d{1,2}:\d{2} (AM|PM)/);
  // Newest first: the three allocations down the tree (once the filtered page has replaced the unfiltered one).
  await expect.poll(() => page.getByRole('table', { name: 'Activity' }).getByRole('row').count(), { timeout: 15_000 }).toBe(4);

  // The same answer in the tenant's ledger, opened from its Resources page.
  await page.goto(server.url(`/orgs/${tenant.id}/resources`));
  await page.getByRole('navigation', { name: 'Quick Links' }).getByRole('link', { name: 'Credit Ledger' }).click();
  await page.waitForURL(`**/credit-ledger?org=${tenant.id}`);
  const entry = page.getByRole('row').filter({ hasText: 'from Activity Agency, allocated by Journey Admin: Tenant pilot' });
  await entry.waitFor();
  expect(await entry.getByTitle('activity.agency@example.test').textContent()).toBe('Journey Admin');
  await entry.getByRole('link', { name: 'Activity Agency' }).click();
  await page.waitForURL(`**/credit-ledger?org=${agency.id}`);
  await page
    .getByRole('row')
    .filter({ hasText: 'Journey Admin allocated' })
    .filter({ hasText: 'credits to Activity Tenant: Tenant pilot' })
    .waitFor();

  // The tenant's admin: its own sign-in, nothing of the agency's, and the agency refused.
  const tenantPage = await journey.freshPage();
  await signInWithForm(tenantPage, server, 'activity.tenant@example.test', PASSWORD);
  await tenantPage.goto(server.url('/activity'));
  const table = tenantPage.getByRole('table', { name: 'Activity' });
  await table.getByRole('row').filter({ hasText: 'signed in' }).first().waitFor();
  const all = (await table.textContent()) ?? '';
  expect(all).not.toContain('Activity Agency');
  expect(all).not.toContain('allocated');
  const refused = await server.api(`/api/activity?organization_id=${agency.id}`, {
    token: await server.signIn('activity.tenant@example.test', PASSWORD),
  });
  expect(refused.status).toBe(404);
});
