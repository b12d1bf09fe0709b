import type { AgentType, GrantList, UserProfile } from '@console/domain';
import { expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, createChild, signInWithForm, useJourney, superAgencyAndAgency } from './harness.ts';
import { MESSAGES } from './wording.ts';

const PASSWORD = 'grants journey password 1';
const AGENCY_ADMIN = 'agency@grants.test';
const p = MESSAGES.creditPages;
const g = MESSAGES.grantPages;
const VOICE = { code: 'voice-receptionist', name: 'Voice Receptionist', kind: 'assistant', unit: 'call', price: '1' };
const CHAT = { code: 'chat-assistant', name: 'Chat Assistant', kind: 'assistant', unit: 'conversation', price: '0.5' };

const journey = useJourney();

async function ok<T>(path: string, token: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<T> {
  const response = await journey.server.api<T>(path, { method, token, body });
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body;
}

it("an agency grants its tenant 100 credits for the voice receptionist only, expiring tomorrow; the tenant's other agents cannot spend them, and at the expiry the agency has them back", {
  timeout: 180_000,
}, async () => {
  const { server } = journey;
  // Setup through the API: house > super agency > agency (300 credits) > tenant (50 open
  // credits), the tenant with both agents active, so each has a spendable figure.
  const houseToken = await server.signIn(ADMIN.email, ADMIN.password);
  const houseId = (await ok<UserProfile>('/api/users/me', houseToken)).organization_id!;
  const types: Record<string, AgentType> = {};
  for (const type of [VOICE, CHAT])
    types[type.code] = (await ok<{ agent_type: AgentType }>('/api/agent-types', houseToken, type)).agent_type;
  await ok('/api/credits/adjustments', houseToken, { direction: 'increase', amount: '1000', reason: 'Grants journey funds' });
  await ok(`/api/organizations/${houseId}/agent-limit`, houseToken, { activated_agent_limit: 10 }, 'PUT');
  const { agency, agencyToken } = await superAgencyAndAgency(
    server,
    { token: houseToken, id: houseId },
    {
      names: ['Grant Super', 'Grant Agency'],
      emails: ['super@grants.test', AGENCY_ADMIN],
      agentLimits: [5, 3],
      password: PASSWORD,
    },
  );
  const tenant = await createChild(server, agencyToken, 'Grant Dental', 'tenant');
  await ok(`/api/organizations/${tenant.id}/agent-limit`, agencyToken, { activated_agent_limit: 2 }, 'PUT');
  await ok('/api/credits/allocations', agencyToken, { from_org_id: agency.id, to_org_id: tenant.id, amount: '50' });
  for (const type of [VOICE, CHAT])
    await ok(`/api/organizations/${tenant.id}/agents`, agencyToken, { agent_type_id: types[type.code]!.id });

  // 1. The agency admin allocates 100 credits with terms: the voice receptionist only, expiring tomorrow.
  const page = await journey.freshPage({ width: 1280, height: 800 });
  await signInWithForm(page, server, AGENCY_ADMIN, PASSWORD);
  await page.goto(server.url(`/orgs/${tenant.id}/allocate-credits`));
  await page.getByLabel('Amount').fill('100');
  await page.getByRole('button', { name: g.terms.add }).click();
  const terms = page.getByRole('group', { name: g.terms.title });
  // Tomorrow at this minute, in the browser's own time zone, as the field takes it.
  const tomorrow = await page.evaluate(() => {
    const at = new Date(Date.now() + 86_400_000);
    const two = (n: number) => String(n).padStart(2, '0');
    return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
  });
  await terms.getByLabel(g.terms.expiresAt).fill(tomorrow);
  await terms.getByLabel(g.terms.someAgents).check();
  await terms.getByRole('group', { name: g.terms.agentsLabel }).getByLabel(VOICE.name).check();
  await page.getByRole('button', { name: p.allocateCredits }).click();
  const review = page.getByRole('region', { name: p.reviewTitle });
  await review.getByText(g.terms.reviewAgents(VOICE.name), { exact: false }).waitFor();
  await review.getByRole('button', { name: p.confirmAllocation }).click();
  await page.getByRole('status', { name: p.allocatedTitle }).waitFor();

  // 2. The tenant's billing page lists the grant; only the voice receptionist may spend it.
  await page.goto(server.url(`/orgs/${tenant.id}/billing`));
  const grants = page.getByRole('table', { name: g.list.label });
  await grants.getByRole('row').filter({ hasText: VOICE.name }).filter({ hasText: '100.00' }).waitFor();
  const spendable = page.getByRole('list', { name: g.list.spendableLabel });
  await spendable
    .getByRole('listitem')
    .filter({ hasText: `${VOICE.name}150.00 credits` })
    .waitFor();
  // The chat assistant can spend the open credits only.
  await spendable
    .getByRole('listitem')
    .filter({ hasText: `${CHAT.name}50.00 credits` })
    .waitFor();
  const parts = await ok<GrantList>(`/api/organizations/${tenant.id}/credit-grants`, agencyToken);
  expect(parts.parts.spendable.find((agent) => agent.code === CHAT.code)?.amount).toBe(parts.parts.open);
  expect(parts.parts.open).toBe('50.00');
  const grant = parts.grants[0]!;
  expect(grant).toMatchObject({ amount: '100.00', remaining: '100.00', agent_types: [{ code: VOICE.code, name: VOICE.name }] });
  // The balance card tells the expiry.
  await page.getByRole('tab', { name: MESSAGES.billingPages.tabCredits }).click();
  await page.getByTestId('balance-parts').getByText(g.parts.soonestExpiry('100.00', ''), { exact: false }).waitFor();
  await expectAccessible(page, "the tenant's billing page with a grant");

  // 3. The agency's own balance on its dashboard, reached inside the page: 300 - 50 - 100.
  await page.getByRole('link', { name: MESSAGES.shell.nav.dashboard }).first().click();
  await page.getByTestId('summary-balance').filter({ hasText: '150.00 credits' }).waitFor();
  await page.evaluate(() => Reflect.set(window, 'grantsJourneyMark', true));

  // 4. The grant expires on demand, at an instant after its expiry; the agency has the 100 back
  // and the dashboard shows it without the page being loaded again.
  const after = new Date(Date.parse(grant.expires_at!) + 60_000).toISOString();
  const [expired] = await server.sql<{ result: { amount: string } | null }>(
    `select credit_grant_expire('${grant.id}'::uuid, '${after}'::timestamptz) as result`,
  );
  expect(expired?.result?.amount).toBe('100.00');
  await page.getByRole('button', { name: MESSAGES.live.refresh }).first().click();
  await page.getByTestId('summary-balance').filter({ hasText: '250.00 credits' }).waitFor({ timeout: 30_000 });
  expect(await page.evaluate(() => Reflect.get(window, 'grantsJourneyMark'))).toBe(true);
  const after2 = await ok<GrantList>(`/api/organizations/${tenant.id}/credit-grants?all=true`, agencyToken);
  expect(after2.parts).toMatchObject({ total: '50.00', open: '50.00', soonest_expiry: null });
});
