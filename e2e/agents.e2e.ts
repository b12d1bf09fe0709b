import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { type UsageBatchResult, type UserProfile } from '@console/domain';
import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ADMIN, createChild, inviteAndRegister, signInWithForm, useJourney, superAgencyAndAgency } from './harness.ts';
import { expectAccessible } from './axe.ts';
import { MESSAGES } from './wording.ts';
import { LIVE_REFRESH_MS } from '../apps/web/src/api/live.ts';

const PASSWORD = 'agents journey password 1';
const a = MESSAGES.agentPages;
const b = MESSAGES.billingPages;
const k = MESSAGES.apiKeyPages;
const TENANT = 'Agents Tenant';
const TENANT_ADMIN = 'tenant.admin@agents.test';
const AGENCY_ADMIN = 'agency.admin@agents.test';
const LOW_BALANCE_SUBJECT = MESSAGES.balanceAlerts.lowBalanceSubject(TENANT);

const journey = useJourney();

async function ok<T>(path: string, token: string, body?: unknown, method?: string): Promise<T> {
  const response = await journey.server.api<T>(path, { method: method ?? (body === undefined ? 'GET' : 'POST'), token, body });
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body;
}

/** What an agent runtime sends: the API key as a bearer token on the machine API. */
async function machine<T>(path: string, key: string, body: unknown): Promise<{ status: number; body: T }> {
  return journey.server.api<T>(`/api/v1/${path}`, { method: 'POST', token: key, body });
}

/** Waits until the element's whole text is exactly this (the page updates on its own). */
async function hasText(locator: Locator, text: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let seen: string | null = null;
  while (Date.now() < deadline) {
    seen = await locator.textContent({ timeout: 10_000 }).catch(() => null);
    if (seen === text) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(seen).toBe(text);
}

/** The Low balance mails to the tenant admin in the outbox, read as the house admin. */
async function lowBalanceMails(houseToken: string) {
  const outbox = await ok<{ messages: { to: string; subject: string; text: string }[] }>('/api/debug/outbox', houseToken);
  return outbox.messages.filter((message) => message.to === TENANT_ADMIN && message.subject === LOW_BALANCE_SUBJECT);
}

/** The innermost block that holds both the heading and the element: the card of that heading. */
function cardOf(page: Page, heading: RegExp, inner: Locator): Locator {
  return page
    .locator('div')
    .filter({ has: page.getByRole('heading', { level: 2, name: heading }) })
    .filter({ has: inner })
    .last();
}

// One journey through four people's browsers and the machine API: more time than one page's test.
it('a house catalog, a tenant activating agents up to its limit, usage through an API key down to a low balance, and the key revoked', {
  timeout: 150_000,
}, async () => {
  const { server } = journey;

  // Setup through the API: the hierarchy with its agent limits and credits, and three catalog types.
  const houseToken = await server.signIn(ADMIN.email, ADMIN.password);
  const me = await ok<UserProfile>('/api/users/me', houseToken);
  const houseId = me.organization_id!;
  await ok(`/api/organizations/${houseId}/agent-limit`, houseToken, { activated_agent_limit: 100 }, 'PUT');
  await ok('/api/credits/adjustments', houseToken, { direction: 'increase', amount: '1000', reason: 'Journey top-up' });
  const { agency, agencyToken } = await superAgencyAndAgency(
    server,
    { token: houseToken, id: houseId },
    {
      names: ['Agents Super', 'Agents Agency'],
      emails: ['super.admin@agents.test', AGENCY_ADMIN],
      agentLimits: [50, 20],
      password: PASSWORD,
    },
  );
  const tenant = await createChild(server, agencyToken, TENANT, 'tenant');
  await ok('/api/credits/allocations', agencyToken, { from_org_id: agency.id, to_org_id: tenant.id, amount: '150' });
  await inviteAndRegister(server, {
    inviterToken: agencyToken,
    houseToken,
    organizationId: tenant.id,
    role: 'tenant_admin',
    email: TENANT_ADMIN,
    password: PASSWORD,
  });
  for (const type of [
    { code: 'report-writer', name: 'Report Writer', kind: 'automation', unit: 'page', price: '2' },
    { code: 'data-sync', name: 'Data Sync', kind: 'integration', unit: 'sync', price: '0.1' },
    { code: 'insight-engine', name: 'Insight Engine', kind: 'analytics', unit: 'query', price: '0.25' },
  ]) {
    await ok('/api/agent-types', houseToken, type);
  }

  // 1. The house admin adds Support Bot to the agent catalog in the console.
  const house = (await journey.openBrowser()).page;
  await signInWithForm(house, server, ADMIN.email, ADMIN.password);
  await house.goto(server.url('/agent-catalog'));
  await house.getByRole('heading', { level: 1, name: a.catalogTitle }).waitFor();
  await house.getByRole('button', { name: a.newType }).click();
  const typeDialog = house.getByRole('dialog', { name: a.newType });
  await typeDialog.getByLabel(a.code, { exact: true }).fill('support-bot');
  await typeDialog.getByLabel(a.name, { exact: true }).fill('Support Bot');
  await typeDialog.getByLabel(a.description, { exact: true }).fill('Answers customer questions.');
  await typeDialog.getByLabel(a.kind, { exact: true }).selectOption('assistant');
  await typeDialog.getByLabel(a.unit, { exact: true }).fill('run');
  await typeDialog.getByLabel(a.price, { exact: true }).fill('1.5');
  await typeDialog.getByRole('button', { name: a.create }).click();
  await house.getByText(a.created('Support Bot')).waitFor();
  await typeDialog.waitFor({ state: 'detached' });
  const catalogRow = house.getByRole('table', { name: a.catalogTitle }).getByRole('row').filter({ hasText: 'Support Bot' });
  await catalogRow.waitFor();
  expect(await catalogRow.textContent()).toBe(
    `support-botSupport BotAnswers customer questions.Assistantrun${a.pricePerUnit('1.5', 'run')}${a.statusActive}${a.editType}${a.retire}`,
  );
  expect(await house.getByRole('table', { name: a.catalogTitle }).getByRole('row').count()).toBe(5); // header + 4 types

  // 2a. The agency admin gives its tenant an agent limit of 4 on the tenant's billing page.
  const parent = (await journey.openBrowser()).page;
  await signInWithForm(parent, server, AGENCY_ADMIN, PASSWORD);
  await parent.goto(server.url(`/orgs/${tenant.id}/billing`));
  await parent.getByRole('heading', { level: 1, name: b.billingTitle }).waitFor();
  await parent.getByText(b.agentsUsed(0, 0)).waitFor();
  await parent.getByRole('button', { name: b.adjustLimit }).click();
  let limitDialog = parent.getByRole('dialog', { name: b.adjustTitle });
  await limitDialog.getByLabel(b.newLimitLabel).fill('4');
  await limitDialog.getByRole('button', { name: b.updateLimit }).click();
  await parent.getByText(MESSAGES.billing.newLimit(4)).waitFor();
  await parent.waitForEvent('load', { timeout: 10_000 }); // the page reloads after a save
  await parent.getByText(b.agentsUsed(0, 4)).waitFor();

  // 2b. The tenant admin activates agents one by one on Resources > Agents; the card follows live.
  const tenantBrowser = await journey.openBrowser();
  const page = tenantBrowser.page;
  await signInWithForm(page, server, TENANT_ADMIN, PASSWORD);
  await page.getByRole('link', { name: MESSAGES.shell.nav.resources }).first().click();
  await page.waitForURL('**/resources');
  // The dashboard has an Agents tab too, and stays in view until the Resources page has loaded.
  await page.getByRole('heading', { level: 1, name: b.resourcesTitle }).waitFor();
  await page.getByRole('tab', { name: b.tabAgents }).click();
  await page.getByText(a.noActivations).waitFor();
  const agentsHeading = page.getByRole('heading', { level: 2 }).filter({ has: page.getByTestId('agents-used') });
  await hasText(agentsHeading, `${a.agentsTitle}${b.agentsUsed(0, 4)}${b.badgeGood}`);
  const activateButton = page.getByRole('button', { name: a.activate });

  const activations: [string, number, string][] = [
    ['Support Bot', 1, b.badgeGood],
    ['Report Writer', 2, b.badgeGood],
    ['Data Sync', 3, b.badgeWarning], // 75 %
    ['Insight Engine', 4, b.badgeCritical], // 100 %
  ];
  for (const [name, used, badge] of activations) {
    await activateButton.click();
    const dialog = page.getByRole('dialog', { name: a.activateTitle });
    await dialog.getByText(b.agentsUsed(used - 1, 4)).waitFor();
    // The picker offers only the catalog types not active here yet.
    await dialog.getByRole('radio').first().waitFor();
    expect(await dialog.getByRole('radio').count()).toBe(5 - used);
    await dialog.getByRole('radio', { name: new RegExp(`^${name}`) }).check();
    await dialog.getByRole('button', { name: a.activateButton, exact: true }).click();
    await page.getByText(a.activated(name)).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await hasText(agentsHeading, `${a.agentsTitle}${b.agentsUsed(used, 4)}${badge}`);
    await page.getByRole('table', { name: a.agentsTitle }).getByRole('row').filter({ hasText: name }).waitFor();
  }
  // At the limit: Activate is disabled, and a note says the limit is reached, with the Critical advice.
  expect(await activateButton.isDisabled()).toBe(true);
  await page
    .getByRole('note')
    .filter({ hasText: MESSAGES.agents.limitReached(4, 4) })
    .filter({ hasText: b.adviceCritical })
    .waitFor();

  // 2c. The parent admin sees the tenant's Agent Limit Status at Critical, and may not lower the limit below 4 active.
  await parent.reload();
  const parentCard = cardOf(parent, /^Agent Limit Status/, parent.getByTestId('agent-usage'));
  await hasText(parent.getByTestId('agent-usage'), b.agentsUsed(4, 4));
  await parentCard.getByText(b.badgeCritical, { exact: true }).waitFor();
  await parentCard.getByText(b.adviceCritical).waitFor();
  await parent.getByRole('button', { name: b.adjustLimit }).click();
  limitDialog = parent.getByRole('dialog', { name: b.adjustTitle });
  await limitDialog.getByLabel(b.newLimitLabel).fill('3');
  await limitDialog.getByRole('button', { name: b.updateLimit }).click();
  await limitDialog
    .getByRole('alert')
    .filter({ hasText: MESSAGES.billing.belowActive(4, 3) })
    .waitFor();
  await limitDialog.getByRole('button', { name: b.cancel }).click();
  await limitDialog.waitFor({ state: 'detached' });

  // 3. The tenant admin makes an API key in Settings; the secret is shown once, in the dialog.
  await page.getByRole('link', { name: MESSAGES.shell.nav.settings }).first().click();
  await page.waitForURL('**/settings');
  await page.getByRole('heading', { level: 1, name: b.settingsTitle }).waitFor();
  const settingsCard = cardOf(page, /^Agent Limit Status/, page.getByTestId('agent-usage'));
  await hasText(page.getByTestId('agent-usage'), b.agentsUsed(4, 4));
  await settingsCard.getByText(b.badgeCritical, { exact: true }).waitFor();
  await hasText(page.getByTestId('credit-balance'), '150.00 credits');
  expect(await page.getByText(MESSAGES.credits.lowBalance).count()).toBe(0);
  await page.getByText(k.empty).waitFor();
  await page.getByRole('button', { name: k.create }).click();
  const keyDialog = page.getByRole('dialog', { name: k.createTitle });
  await keyDialog.getByLabel(k.name, { exact: true }).fill('Production runtime');
  await keyDialog.getByRole('checkbox', { name: /^Report usage/ }).check();
  await keyDialog.getByRole('checkbox', { name: /^Report status/ }).check();
  // The usage simulator asks its entitlements first.
  await keyDialog.getByRole('checkbox', { name: /^Check entitlements/ }).check();
  await keyDialog.getByRole('button', { name: k.create }).click();
  const secretDialog = page.getByRole('dialog', { name: k.secretTitle });
  await secretDialog.getByRole('alert').filter({ hasText: k.secretWarning }).waitFor();
  const key = await secretDialog.getByLabel(k.secretLabel, { exact: true }).inputValue();
  expect(key).toMatch(/^oc_/);
  await secretDialog.getByRole('button', { name: k.done }).click();
  await secretDialog.waitFor({ state: 'detached' });
  const keyRow = page.getByRole('table', { name: k.title }).getByRole('row').filter({ hasText: 'Production runtime' });
  await keyRow.waitFor();
  expect(await keyRow.textContent()).toContain(key.slice(0, 11)); // the visible prefix, never the whole key
  expect(await keyRow.textContent()).not.toContain(key);

  // 4. A runtime reports usage with the key: a batch with a duplicate id crosses the 100-credit threshold.
  // Settings stays open meanwhile: a mark on its window shows it is never reloaded.
  await page.evaluate(() => ((window as unknown as { __notReloaded?: boolean }).__notReloaded = true));
  const at = new Date().toISOString();
  const event = (id: string, agent: string, units: string) => ({ id, organization_id: tenant.id, agent, units, occurred_at: at });
  const batch = await machine<UsageBatchResult>('usage-events', key, {
    events: [
      event('run-1', 'support-bot', '20'), // 30.00
      event('run-2', 'report-writer', '5'), // 10.00
      event('run-3', 'support-bot', '10'), // 15.00
      event('run-1', 'support-bot', '20'), // the same id again: recorded once
      event('run-4', 'support-bot', '4'), // 6.00: the balance moves once, 150.00 → 89.00, below the threshold
    ],
  });
  expect(batch.status).toBe(200);
  expect(batch.body).toMatchObject({ accepted: 4, duplicates: 1, rejected: 0 });
  expect(batch.body.results.map((result) => [result.id, result.status, result.credits_charged])).toEqual([
    ['run-1', 'accepted', '30.00'],
    ['run-2', 'accepted', '10.00'],
    ['run-3', 'accepted', '15.00'],
    ['run-1', 'duplicate', '30.00'],
    ['run-4', 'accepted', '6.00'],
  ]);
  const heartbeat = await machine<{ health_score: number; status: string }>('heartbeats', key, {
    organization_id: tenant.id,
    agent: 'support-bot',
    status: 'active',
    health_score: 92,
  });
  expect(heartbeat.status).toBe(200);
  expect(heartbeat.body).toMatchObject({ status: 'active', health_score: 92 });

  // The low-balance mail is stored by the background sender within a few seconds.
  const mailDeadline = Date.now() + 15_000;
  while ((await lowBalanceMails(houseToken)).length === 0) {
    if (Date.now() > mailDeadline) throw new Error('no low-balance mail in the outbox');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // One more event below the threshold: no new crossing, so no second mail.
  const more = await machine<UsageBatchResult>('usage-events', key, { events: [event('run-5', 'report-writer', '2.5')] }); // 5.00 → 84.00
  expect(more.body).toMatchObject({ accepted: 1, duplicates: 0, rejected: 0 });
  const afterLastEvent = Date.now();

  // 5. The tenant admin watches: Settings, open since before the usage, shows the new balance
  // and the warning on its own within the refresh interval, without a reload...
  await page
    .getByTestId('credit-balance')
    .filter({ hasText: '84.00 credits' })
    .waitFor({ timeout: LIVE_REFRESH_MS + 15_000 });
  expect(await page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded)).toBe(true);
  await page.getByText(MESSAGES.credits.lowBalance).waitFor();
  await page.getByText(MESSAGES.thresholdPages.below('100.00 credits')).waitFor();

  // ...the Credit Ledger, with the agent and units of each consumption, filtered by agent...
  await page.getByRole('link', { name: MESSAGES.shell.nav.creditLedger }).first().click();
  await page.waitForURL('**/credit-ledger');
  await page.getByRole('heading', { level: 1, name: MESSAGES.shell.nav.creditLedger }).waitFor();
  await hasText(page.getByTestId('credit-balance'), '84.00 credits');
  await page.getByText(MESSAGES.credits.lowBalance).waitFor();
  const ledger = page.getByRole('table', { name: 'Credit transactions' });
  const consumption = ledger.getByRole('row').filter({ hasText: 'Consumption' });
  await consumption.first().waitFor();
  // One consumption entry per batch and agent (and price): the first batch made two, the second one.
  expect(await consumption.count()).toBe(3);
  // The server's sentence names each agent from the catalog, with its events, units and unit.
  const firstRun = ledger.getByRole('row').filter({ hasText: 'Support Bot: 3 events, 34 × run, charged 51.00 credits' });
  await firstRun.first().waitFor();
  expect(await firstRun.count()).toBe(1);
  expect(await firstRun.textContent()).toContain('-51.00 credits99.00 credits');
  // Each consumption opens to the usage events it charged, as the runtime reported them.
  await firstRun.getByRole('button', { name: /^Events: / }).click();
  const events = page.getByRole('dialog', { name: MESSAGES.creditPages.entryEventsTitle });
  for (const id of ['run-1', 'run-3', 'run-4']) await events.getByText(id, { exact: true }).waitFor();
  expect(await events.textContent()).toContain('30.00 credits');
  expect(await events.textContent()).not.toContain('run-2');
  await expectAccessible(page, 'usage events of a consumption entry');
  await page.keyboard.press('Escape');
  await events.waitFor({ state: 'detached' });
  expect(await ledger.getByRole('row').filter({ hasText: 'Report Writer: 1 event, 2.5 × page' }).textContent()).toContain(
    '-5.00 credits84.00 credits',
  );
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Report Writer' });
  await page.waitForURL(/agent=/);
  await ledger.getByRole('row').filter({ hasText: 'Report Writer: 1 event, 5 × page' }).waitFor();
  const deadline = Date.now() + 10_000;
  while ((await ledger.getByRole('row').count()) !== 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await ledger.getByRole('row').count()).toBe(3); // the header and Report Writer's two entries
  expect(await ledger.getByRole('row').filter({ hasText: 'Support Bot' }).count()).toBe(0);

  // ...the dashboard's Agents tab: usage by agent and the health the runtime reported...
  await page.goto(server.url('/dashboard?tab=agents'));
  const analytics = page.getByRole('table', { name: `${MESSAGES.dashboardPages.agentAnalytics}, last 7 days` });
  await hasText(analytics.getByRole('row').filter({ hasText: 'Support Bot' }), 'Support Bot334 × run51.00 credits');
  await hasText(analytics.getByRole('row').filter({ hasText: 'Report Writer' }), 'Report Writer27.5 × page15.00 credits');
  await hasText(page.getByTestId('agents-events-total'), '5');
  await hasText(page.getByTestId('agents-credits-total'), '66.00 credits');
  const performance = page.getByRole('list', { name: MESSAGES.dashboardPages.agentPerformance });
  await performance
    .getByRole('listitem')
    .filter({ hasText: 'Support Bot' })
    .getByRole('progressbar', { name: a.healthLabel(92) })
    .waitFor();

  // ...and Resources: the warning on Overview, and each agent's 30 days, last activity and health.
  await page.goto(server.url('/resources'));
  await page.getByRole('heading', { level: 1, name: b.resourcesTitle }).waitFor();
  await page.getByText(MESSAGES.credits.lowBalance).waitFor();
  await page.getByRole('tab', { name: b.tabAgents }).click();
  const agentsTable = page.getByRole('table', { name: a.agentsTitle });
  const botRow = agentsTable.getByRole('row').filter({ hasText: 'Support Bot' });
  await botRow.getByRole('progressbar', { name: a.healthLabel(92) }).waitFor();
  expect(await botRow.textContent()).toContain('3 events34 × run51.00 credits');
  expect(await botRow.locator('time').textContent()).toMatch(/^(just now|\d+ seconds? ago|1 minute ago)$/);
  expect(await agentsTable.getByRole('row').filter({ hasText: 'Report Writer' }).textContent()).toContain(
    '2 events7.5 × page15.00 credits',
  );
  const idleRow = agentsTable.getByRole('row').filter({ hasText: 'Data Sync' });
  expect(await idleRow.textContent()).toContain(`${a.never}${a.notReported}0 events0 × sync0.00 credits`);

  // At 390 px the agents are cards, and the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  const cards = page.getByRole('list', { name: a.agentsTitle });
  await cards.getByRole('listitem').first().waitFor();
  expect(await cards.getByRole('listitem').count()).toBe(4);
  expect(await cards.getByRole('listitem').filter({ hasText: 'Support Bot' }).textContent()).toContain('3 events · 34 × run');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 800 });
  await agentsTable.waitFor();

  // One agent deactivated after its confirmation: 3 / 4 is Warning again, and Activate comes back.
  await page.getByRole('button', { name: `${a.deactivate} Data Sync` }).click();
  const confirm = page.getByRole('alertdialog', { name: a.deactivateTitle('Data Sync') });
  await confirm.getByText(a.deactivateBody).waitFor();
  await confirm.getByRole('button', { name: a.deactivate }).click();
  await page.getByText(a.deactivated('Data Sync')).waitFor();
  await hasText(agentsHeading, `${a.agentsTitle}${b.agentsUsed(3, 4)}${b.badgeWarning}`);
  expect(await activateButton.isDisabled()).toBe(false);
  expect(await page.getByRole('note').count()).toBe(0);
  expect(await agentsTable.getByRole('row').filter({ hasText: 'Data Sync' }).count()).toBe(0);

  // The low-balance mail is in the outbox exactly once, though several events took the balance below 100.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, afterLastEvent + 6_000 - Date.now())));
  const mails = await lowBalanceMails(houseToken);
  expect(mails).toHaveLength(1);
  // The batch's charges are written together: the mail names the balance they left.
  expect(mails[0]!.text).toContain(MESSAGES.balanceAlerts.lowBalance(TENANT, '89.00', '100.00'));
  await house.goto(server.url('/debug'));
  await house.getByRole('tab', { name: MESSAGES.debugPages.tabOutbox }).click();
  const outbox = house.getByRole('table', { name: 'Outbox messages' });
  await outbox.getByRole('cell', { name: LOW_BALANCE_SUBJECT }).waitFor();
  expect(await outbox.getByRole('row').filter({ hasText: LOW_BALANCE_SUBJECT }).count()).toBe(1);

  // The demo's usage simulator (npm run usage:simulate) sends a batch while Settings is open:
  // the balance moves on screen within the refresh interval, without a reload.
  await page.goto(server.url('/settings'));
  await hasText(page.getByTestId('credit-balance'), '84.00 credits');
  await page.evaluate(() => ((window as unknown as { __notReloaded?: boolean }).__notReloaded = true));
  // As a person runs it from the checkout: the script, its own process.
  const simulated = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'scripts/usage-simulate.ts', '--key', key, '--url', server.url('/').replace(/\/$/, ''), '--org', tenant.id].concat(
      ['--agent', 'support-bot', '--batches', '1', '--size', '1', '--interval', '0', '--no-heartbeat'],
      ['--state', `${tmpdir()}/agents-journey-${Date.now()}.json`],
    ),
  );
  expect(simulated.stdout).toMatch(/accepted/i);
  await page.waitForFunction(
    () => {
      const shown = document.querySelector('[data-testid="credit-balance"]')?.textContent ?? '';
      return /credits/.test(shown) && !shown.includes('84.00');
    },
    undefined,
    { timeout: LIVE_REFRESH_MS + 15_000 },
  );
  expect(await page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded)).toBe(true);
  const afterSimulator = (await page.getByTestId('credit-balance').textContent())!.trim();

  // 6. The tenant admin revokes the key after its confirmation; the runtime's next call is refused.
  await settingsCard.getByText(b.badgeWarning, { exact: true }).waitFor();
  await hasText(page.getByTestId('agent-usage'), b.agentsUsed(3, 4));
  await page.getByRole('button', { name: `${k.revoke} Production runtime` }).click();
  const revoke = page.getByRole('alertdialog', { name: k.revokeTitle('Production runtime') });
  await revoke.getByText(k.revokeBody).waitFor();
  await revoke.getByRole('button', { name: k.revoke }).click();
  await page.getByText(k.revoked('Production runtime')).waitFor();
  await keyRow.getByText(k.revokedBadge, { exact: true }).waitFor();
  const refused = await machine<{ error: { message: string } }>('usage-events', key, { events: [event('run-6', 'support-bot', '1')] });
  expect(refused.status).toBe(401);
  expect(refused.body.error.message).toBe(MESSAGES.usage.invalidKey);
  await page.reload();
  await hasText(page.getByTestId('credit-balance'), afterSimulator);
});
