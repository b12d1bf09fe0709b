import { type OrganizationDetail, type UserProfile } from '@console/domain';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ADMIN, createChild, signInWithForm, tablesScrollingSideways, useJourney, widthReport } from './harness.ts';
import { MESSAGES } from './wording.ts';

/**
 * Every page at 390 px, with names as long as validation allows and no space to break
 * them at: no page is wider than the window, and the header names the page.
 */

const LONG_NAME = `Long${'x'.repeat(96)}`;
const journey = useJourney();

/** The page's content no wider than the window, and the header's title once the page has settled. */
async function expectFits(page: Page, title: string) {
  await page.getByTestId('page-title').filter({ hasText: title }).waitFor();
  await page.waitForLoadState('networkidle');
  const { scrollWidth, innerWidth, wide } = await widthReport(page);
  expect(scrollWidth, `${new URL(page.url()).pathname} is ${scrollWidth} px wide: ${wide.join(' | ')}`).toBeLessThanOrEqual(innerWidth);
}

it('at 390 px, with a 100-character organization name without spaces, no page is wider than the window and the header names each', async () => {
  const { server } = journey;
  expect(LONG_NAME).toHaveLength(100);
  const token = await server.signIn(ADMIN.email, ADMIN.password);
  const me = await server.api<UserProfile>('/api/users/me', { token });
  const houseId = me.body.organization_id;
  const renamed = await server.api<{ organization: OrganizationDetail }>(`/api/organizations/${houseId}`, {
    method: 'PATCH',
    token,
    body: { name: LONG_NAME },
  });
  expect(renamed.status).toBe(200);
  const child = await createChild(server, token, `Child${'y'.repeat(95)}`, 'super_agency');
  const person = await server.api(`/api/users/me`, {
    method: 'PATCH',
    token,
    body: { first_name: `First${'z'.repeat(95)}`, last_name: 'Admin' },
  });
  expect(person.status).toBe(200);

  const page = await journey.freshPage({ width: 390, height: 844 });
  await signInWithForm(page, server, ADMIN.email, ADMIN.password);
  const { nav, pageTitles } = MESSAGES.shell;
  const visits: [string, string][] = [
    ['/dashboard', nav.dashboard],
    ['/orgs', nav.organizations],
    [`/orgs/${houseId}`, pageTitles.organization],
    [`/orgs/${child.id}`, pageTitles.organization],
    ['/team', nav.team],
    ['/credit-ledger', nav.creditLedger],
    ['/resources', nav.resources],
    [`/orgs/${houseId}/billing`, pageTitles.billing],
    ['/pricing', nav.pricing],
  ];
  for (const [path, title] of visits) {
    await page.goto(server.url(path));
    await expectFits(page, title);
  }
});

it('at 1280 px the organization detail page of a long name is no wider than the window, and the ledger table fits its card', async () => {
  const { server } = journey;
  const token = await server.signIn(ADMIN.email, ADMIN.password);
  const me = await server.api<UserProfile>('/api/users/me', { token });
  // Ledger rows naming the long-named organizations, with a long reason and notes without spaces.
  const children = await server.api<{ organizations: { id: string }[] }>(`/api/organizations?view=children`, { token });
  const child = children.body.organizations[0]!;
  for (const [path, body] of [
    ['/api/credits/adjustments', { direction: 'increase', amount: '100', reason: `Reason${'r'.repeat(90)}` }],
    [
      '/api/credits/allocations',
      { from_org_id: me.body.organization_id, to_org_id: child.id, amount: '10', notes: `Notes${'n'.repeat(90)}` },
    ],
  ] as const) {
    const moved = await server.api(path, { method: 'POST', token, body });
    expect(moved.status, `${path}: ${JSON.stringify(moved.body)}`).toBe(200);
  }
  const page = await journey.freshPage({ width: 1280, height: 800 });
  await signInWithForm(page, server, ADMIN.email, ADMIN.password);
  for (const [path, title] of [
    [`/orgs/${me.body.organization_id}`, MESSAGES.shell.pageTitles.organization],
    ['/dashboard', MESSAGES.shell.nav.dashboard],
  ] as const) {
    await page.goto(server.url(path));
    await expectFits(page, title);
  }
  // With the sidebar open, the ledger's table fits its card: no column is cut off.
  await page.goto(server.url('/credit-ledger'));
  await expectFits(page, MESSAGES.shell.nav.creditLedger);
  await page
    .getByRole('main')
    .getByText(`Reason${'r'.repeat(90)}`)
    .first()
    .waitFor();
  expect(await tablesScrollingSideways(page)).toEqual([]);
});
