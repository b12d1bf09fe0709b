import { type UsageBatchResult, type UserProfile } from '@console/domain';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ADMIN, createChild, inviteAndRegister, signInWithForm, useJourney, superAgencyAndAgency } from './harness.ts';
import { expectAccessible } from './axe.ts';
import { MESSAGES } from './wording.ts';

const PASSWORD = 'economics journey password 1';
const p = MESSAGES.pricingPages;
const s = MESSAGES.spendPages;
const k = MESSAGES.apiKeyPages;
const TENANT = 'Econ Tenant';

const journey = useJourney();

async function ok<T>(path: string, token: string, body?: unknown, method?: string): Promise<T> {
  const response = await journey.server.api<T>(path, { method: method ?? (body === undefined ? 'GET' : 'POST'), token, body });
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body;
}

/** What an agent runtime sends: the API key as a bearer token on the machine API. */
async function report(key: string, organizationId: string, id: string, units: string) {
  const response = await journey.server.api<UsageBatchResult>('/api/v1/usage-events', {
    method: 'POST',
    token: key,
    body: { events: [{ id, organization_id: organizationId, agent: 'econ-bot', units, occurred_at: new Date().toISOString() }] },
  });
  expect(response.status).toBe(200);
  return response.body.results[0]!;
}

/** Sets what a seller's children pay for Econ Bot on its Pricing page, as its admin. */
async function setPrice(page: Page, price: string) {
  await page.goto(journey.server.url('/pricing'));
  await page.getByRole('heading', { level: 1, name: p.title }).waitFor();
  await page.getByRole('button', { name: p.editLabel('Econ Bot') }).click();
  const dialog = page.getByRole('dialog', { name: p.editTitle('Econ Bot') });
  // A book that passes the own price through opens with that switch on: a price of its own turns it off.
  const through = dialog.getByRole('switch', { name: p.passThroughLabel });
  if ((await through.getAttribute('aria-checked')) === 'true') await through.click();
  await dialog.getByLabel(p.priceLabel('run')).fill(price);
  await dialog.getByRole('button', { name: p.save }).click();
  await page.getByText(p.saved('Econ Bot')).waitFor();
  await dialog.waitFor({ state: 'detached' });
}

/** The ledger's rows, as the organization's admin sees them. */
async function ledgerText(page: Page): Promise<string> {
  await page.goto(journey.server.url('/credit-ledger'));
  await page.getByRole('table').first().waitFor();
  return (await page.locator('main').textContent()) ?? '';
}

it('a super agency and an agency mark up, the tenant pays and each level earns; a cap stops a key; a top-up refills the tenant', {
  timeout: 180_000,
}, async () => {
  const { server } = journey;
  // Setup through the API: house > super agency > agency > tenant, one agent type at 1.00 a run.
  const houseToken = await server.signIn(ADMIN.email, ADMIN.password);
  const houseId = (await ok<UserProfile>('/api/users/me', houseToken)).organization_id!;
  await ok(`/api/organizations/${houseId}/agent-limit`, houseToken, { activated_agent_limit: 10 }, 'PUT');
  await ok('/api/credits/adjustments', houseToken, { direction: 'increase', amount: '1000', reason: 'Journey funds' });
  await ok('/api/agent-types', houseToken, { code: 'econ-bot', name: 'Econ Bot', kind: 'assistant', unit: 'run', price: '1' });
  const { agency, agencyToken } = await superAgencyAndAgency(
    server,
    { token: houseToken, id: houseId },
    {
      names: ['Econ Super', 'Econ Agency'],
      emails: ['super.admin@economics.test', 'agency.admin@economics.test'],
      agentLimits: [5, 3],
      password: PASSWORD,
    },
  );
  const tenant = await createChild(server, agencyToken, TENANT, 'tenant');
  await ok(`/api/organizations/${tenant.id}/agent-limit`, agencyToken, { activated_agent_limit: 1 }, 'PUT');
  await ok('/api/credits/allocations', agencyToken, { from_org_id: agency.id, to_org_id: tenant.id, amount: '60' });
  const tenantToken = await inviteAndRegister(server, {
    inviterToken: agencyToken,
    houseToken,
    organizationId: tenant.id,
    role: 'tenant_admin',
    email: 'tenant.admin@economics.test',
    password: PASSWORD,
  });
  const types = await ok<{ agent_types: { id: string; code: string }[] }>('/api/agent-types', houseToken);
  const botId = types.agent_types.find((t) => t.code === 'econ-bot')!.id;
  await ok(`/api/organizations/${tenant.id}/agents`, agencyToken, { agent_type_id: botId });
  const created = await ok<{ secret: string; api_key: { id: string } }>(`/api/organizations/${tenant.id}/api-keys`, tenantToken, {
    name: 'Econ runtime',
    scopes: ['usage:write', 'entitlements:read'],
  });

  // 1. The super agency marks Econ Bot up 20 %, the agency a further 25 %, each on its Pricing page.
  const superPage = (await journey.openBrowser()).page;
  await signInWithForm(superPage, server, 'super.admin@economics.test', PASSWORD);
  await setPrice(superPage, '1.2');
  const superRow = superPage.getByRole('table', { name: p.tableLabel }).getByRole('row').filter({ hasText: 'Econ Bot' });
  await superRow.getByText('0.2').first().waitFor();
  await expectAccessible(superPage, 'pricing page');
  const agencyPage = (await journey.openBrowser()).page;
  await signInWithForm(agencyPage, server, 'agency.admin@economics.test', PASSWORD);
  await setPrice(agencyPage, '1.5');
  // The agency sees its own price (1.20) and its margin, never the house's.
  const agencyRow = agencyPage.getByRole('table', { name: p.tableLabel }).getByRole('row').filter({ hasText: 'Econ Bot' });
  expect(await agencyRow.textContent()).toContain('1.2');
  expect(await agencyRow.textContent()).toContain('0.3');

  // 2. The tenant's runtime reports 10 runs: 15.00 at its price; the agency earns 3.00, the super agency 2.00.
  expect(await report(created.secret, tenant.id, 'econ-1', '10')).toMatchObject({ status: 'accepted', credits_charged: '15.00' });
  const tenantPage = (await journey.openBrowser()).page;
  await signInWithForm(tenantPage, server, 'tenant.admin@economics.test', PASSWORD);
  const tenantLedger = await ledgerText(tenantPage);
  expect(tenantLedger).toContain('15.00');
  expect(tenantLedger).not.toContain('Earned');
  expect(await ledgerText(agencyPage)).toContain("Earned 3.00 credits from Econ Tenant's Econ Bot");
  expect(await ledgerText(superPage)).toContain("Earned 2.00 credits from Econ Agency's Econ Bot");
  // The agency's dashboard: Earned this month, by child.
  await agencyPage.goto(server.url('/dashboard'));
  const byChild = agencyPage.getByRole('table', { name: p.byChild });
  await byChild.getByRole('row').filter({ hasText: TENANT }).waitFor();
  expect(await byChild.getByRole('row').filter({ hasText: TENANT }).textContent()).toBe(`${TENANT}3.00`);

  // 3. The tenant admin caps its key at 20.00 a month on Settings: the next 10 runs (15.00) would pass it.
  await tenantPage.goto(server.url('/settings'));
  await tenantPage.getByRole('button', { name: `${k.edit} Econ runtime` }).click();
  const keyDialog = tenantPage.getByRole('dialog', { name: k.editTitle('Econ runtime') });
  await keyDialog.getByLabel(s.keyCapLabel).fill('20');
  await keyDialog.getByRole('button', { name: k.save }).click();
  await keyDialog.waitFor({ state: 'detached' });
  await tenantPage.getByText(s.capUsed('15.00', '20.00 credits')).first().waitFor();
  const stopped = await report(created.secret, tenant.id, 'econ-2', '10');
  expect(stopped).toMatchObject({ status: 'rejected', reason: 'key_cap_reached' });
  expect(stopped.message).toContain('20.00');
  await tenantPage.getByRole('button', { name: `${k.edit} Econ runtime` }).click();
  await keyDialog.getByLabel(s.keyCapLabel).fill('');
  await keyDialog.getByRole('button', { name: k.save }).click();
  await keyDialog.waitFor({ state: 'detached' });

  // 4. The agency admin gives the tenant an automatic top-up below 40.00 on its billing page.
  await agencyPage.goto(server.url(`/orgs/${tenant.id}/billing`));
  await agencyPage.getByRole('button', { name: s.editAria }).click();
  const controls = agencyPage.getByRole('dialog', { name: s.editTitle(TENANT) });
  await controls.getByRole('switch', { name: s.topUpSwitch }).click();
  await controls.getByLabel(s.belowLabel).fill('40');
  await controls.getByLabel(s.amountLabel).fill('25');
  await controls.getByLabel(s.monthlyMaxLabel).fill('100');
  await controls.getByRole('button', { name: s.save }).click();
  await agencyPage.getByText(s.saved).waitFor();
  await controls.waitFor({ state: 'detached' });
  await expectAccessible(agencyPage, 'billing page with spend controls');
  // 45.00 left; 5 runs (7.50) take it to 37.50, below the line: the parent moves 25.00 within seconds.
  expect(await report(created.secret, tenant.id, 'econ-3', '5')).toMatchObject({ status: 'accepted', credits_charged: '7.50' });
  await agencyPage.getByText(s.toppedUpThisMonth('25.00')).waitFor({ timeout: 15_000 });
  expect(await ledgerText(tenantPage)).toContain('Automatic top-up: received 25.00 credits from Econ Agency');
  expect(await ledgerText(agencyPage)).toContain('Automatic top-up: sent 25.00 credits to Econ Tenant');

  // 5. The spend controls say what the top-up was for, and the agency takes it back: the tenant
  // has not spent it. The reversal takes the tenant below its line again, and queues no top-up.
  await agencyPage.goto(server.url(`/orgs/${tenant.id}/billing`));
  const history = agencyPage.getByTestId('top-up-history');
  await history.getByText(s.topUpForCrossed('37.50 credits')).waitFor();
  await history.getByRole('button', { name: MESSAGES.creditPages.reverseLabel('25.00', TENANT) }).click();
  const review = agencyPage.getByRole('dialog', { name: MESSAGES.creditPages.reverseTitle });
  await review.getByLabel('Reason').fill('Not needed after all');
  await expectAccessible(agencyPage, 'reversing an automatic top-up');
  await review.getByRole('button', { name: MESSAGES.creditPages.confirmReversal }).click();
  await review.waitFor({ state: 'detached' });
  await history.getByText(s.topUpReversed).waitFor();
  await agencyPage.getByText(s.toppedUpThisMonth('0.00')).waitFor();
  expect(await ledgerText(tenantPage)).toContain('returned to Econ Agency: Not needed after all');
});
