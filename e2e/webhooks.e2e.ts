import type { UsageBatchResult, UserProfile } from '@console/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, createChild, inviteAndRegister, signInWithForm, useJourney, widthReport, superAgencyAndAgency } from './harness.ts';
import { expectAccessible } from './axe.ts';
import { MESSAGES } from './wording.ts';
import { startReceiver, until, type Receiver } from '../support/webhook-receiver.ts';

const PASSWORD = 'webhooks journey password 1';
const w = MESSAGES.webhookPages;
const TENANT = 'Hook Tenant';

const journey = useJourney();
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

async function ok<T>(path: string, token: string, body?: unknown, method?: string): Promise<T> {
  const response = await journey.server.api<T>(path, { method: method ?? (body === undefined ? 'GET' : 'POST'), token, body });
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body;
}

it("an agency admin adds an endpoint for its subtree; a tenant's usage crosses its threshold; the receiver gets a verified balance.low naming the tenant; the log shows it", {
  timeout: 180_000,
}, async () => {
  const { server } = journey;
  // Setup through the API: house > super agency > agency > tenant (150 credits, threshold 100), one agent at 1.00 a run.
  const houseToken = await server.signIn(ADMIN.email, ADMIN.password);
  const houseId = (await ok<UserProfile>('/api/users/me', houseToken)).organization_id!;
  await ok(`/api/organizations/${houseId}/agent-limit`, houseToken, { activated_agent_limit: 10 }, 'PUT');
  await ok('/api/credits/adjustments', houseToken, { direction: 'increase', amount: '1000', reason: 'Journey funds' });
  await ok('/api/agent-types', houseToken, { code: 'hook-bot', name: 'Hook Bot', kind: 'assistant', unit: 'run', price: '1' });
  const { agency, agencyToken } = await superAgencyAndAgency(
    server,
    { token: houseToken, id: houseId },
    {
      names: ['Hook Super', 'Hook Agency'],
      emails: ['super.admin@webhooks.test', 'agency.admin@webhooks.test'],
      agentLimits: [5, 3],
      password: PASSWORD,
    },
  );
  const tenant = await createChild(server, agencyToken, TENANT, 'tenant');
  await ok(`/api/organizations/${tenant.id}/agent-limit`, agencyToken, { activated_agent_limit: 1 }, 'PUT');
  await ok('/api/credits/allocations', agencyToken, { from_org_id: agency.id, to_org_id: tenant.id, amount: '150' });
  const tenantToken = await inviteAndRegister(server, {
    inviterToken: agencyToken,
    houseToken,
    organizationId: tenant.id,
    role: 'tenant_admin',
    email: 'tenant.admin@webhooks.test',
    password: PASSWORD,
  });
  const types = await ok<{ agent_types: { id: string; code: string }[] }>('/api/agent-types', houseToken);
  await ok(`/api/organizations/${tenant.id}/agents`, agencyToken, {
    agent_type_id: types.agent_types.find((t) => t.code === 'hook-bot')!.id,
  });
  const key = await ok<{ secret: string }>(`/api/organizations/${tenant.id}/api-keys`, tenantToken, {
    name: 'Hook runtime',
    scopes: ['usage:write'],
  });

  // 1. The agency admin adds an endpoint for balance.low, its subtree included, on Settings > Webhooks.
  const page = (await journey.openBrowser()).page;
  await signInWithForm(page, server, 'agency.admin@webhooks.test', PASSWORD);
  await page.goto(server.url('/settings'));
  await page.getByRole('link', { name: w.settingsLink }).click();
  await page.getByRole('heading', { level: 1, name: w.title }).waitFor();
  await page.getByText(w.empty).waitFor();
  await expectAccessible(page, 'webhooks page, empty');
  await page.getByRole('button', { name: w.add }).click();
  const dialog = page.getByRole('dialog', { name: w.addTitle });
  await dialog.getByLabel(w.url, { exact: true }).fill(receiver.url('/agency'));
  await dialog.getByLabel(w.description).fill('Agency alerts');
  await dialog.getByRole('checkbox', { name: /Balance fell below/ }).check();
  await dialog.getByRole('switch', { name: w.subtree }).click();
  await dialog.getByRole('button', { name: w.add }).click();
  const secretField = page.getByRole('textbox', { name: w.secretLabel });
  await secretField.waitFor();
  const secret = await secretField.inputValue();
  expect(secret).toMatch(/^whsec_/);
  await expectAccessible(page, 'the secret, shown once');
  receiver.trust(secret);
  await page.getByRole('button', { name: w.done }).click();
  await page.getByText(receiver.url('/agency')).first().waitFor();
  expect(await page.locator('main').textContent()).not.toContain(secret.slice(6));

  // 2. The tenant's runtime reports 60 runs: 150.00 → 90.00, below its threshold of 100.00.
  const reported = await server.api<UsageBatchResult>('/api/v1/usage-events', {
    method: 'POST',
    token: key.secret,
    body: { events: [{ id: 'hook-1', organization_id: tenant.id, agent: 'hook-bot', units: '60', occurred_at: new Date().toISOString() }] },
  });
  expect(reported.body.results[0]).toMatchObject({ status: 'accepted', credits_charged: '60.00' });

  // 3. The receiver gets balance.low, signed (verified with the standardwebhooks package), naming the tenant.
  await until(() => receiver.of('balance.low').length > 0, 'balance.low at the receiver', 30_000);
  const low = receiver.of('balance.low')[0]!;
  expect(low.verified).toBe(true);
  expect(low.json.organization).toMatchObject({ id: tenant.id, name: TENANT, org_type: 'tenant' });
  expect(low.json.organization.path.map((o: { name: string }) => o.name)).toEqual(['Hook Agency', TENANT]);
  expect(low.json.data).toEqual({ balance: '90.00', threshold: '100.00' });

  // 4. The delivery log shows it, delivered in one attempt with its status.
  await page.getByRole('link', { name: w.log }).first().click();
  await page.getByRole('heading', { level: 1, name: w.logTitle }).waitFor();
  const main = page.locator('main');
  const row = main.getByRole('row').filter({ hasText: 'balance.low' }).filter({ hasText: TENANT });
  await row.first().waitFor();
  expect(await row.first().textContent()).toContain(w.states.delivered);
  await expectAccessible(page, 'delivery log');

  // 5. At 390 px the list and the log fit the window.
  const narrow = (await journey.openBrowser({ width: 390, height: 844 })).page;
  await signInWithForm(narrow, server, 'agency.admin@webhooks.test', PASSWORD);
  await narrow.goto(server.url('/settings/webhooks'));
  await narrow.getByText(receiver.url('/agency')).first().waitFor();
  const list = await widthReport(narrow);
  expect(list.scrollWidth, list.wide.join(', ')).toBeLessThanOrEqual(list.innerWidth);
  await expectAccessible(narrow, 'webhooks page at 390 px');
  await narrow.goto(page.url());
  await narrow.getByText('balance.low').first().waitFor();
  const log = await widthReport(narrow);
  expect(log.scrollWidth, log.wide.join(', ')).toBeLessThanOrEqual(log.innerWidth);
  await expectAccessible(narrow, 'delivery log at 390 px');
});
