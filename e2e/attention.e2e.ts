import { ORG_ATTENTION_LABELS } from '@console/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { demoEmail, launchBrowser, signInWithForm, useJourney } from './harness.ts';
import { MESSAGES } from './wording.ts';

/**
 * A parent's view of its children on the demo: Lakeside Pharmacy ends the seeded month just
 * below its low-balance threshold. The house admin's list of all organizations marks it, and
 * its "Show: Low balance" filter, applied by the server, keeps it and drops the others.
 */
const journey = useJourney({ demo: true });
let browser: Awaited<ReturnType<typeof launchBrowser>>;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const rowOf = (page: Page, table: string, name: string) =>
  page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: name });

it('the organization list marks a child below its low-balance threshold and filters the low ones', { timeout: 180_000 }, async () => {
  const { server } = journey;
  // The one list with filters on this page is All Organizations.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  try {
    await signInWithForm(page, server, demoEmail('house_admin'), server.demoPassword!);
    await page.goto(server.url('/organizations'));
    const all = 'All Organizations';
    const lakeside = rowOf(page, all, 'Lakeside Pharmacy');
    await lakeside.waitFor();
    expect(await lakeside.textContent()).toContain('Low balance');
    expect(await rowOf(page, all, 'Acme Dental').textContent()).not.toContain('Low balance');

    // The filter is the server's: the list asks again with it and shows only the low ones.
    const asked = page.waitForRequest((request) => new URL(request.url()).searchParams.get('attention') === 'low_balance');
    await page.getByLabel('Show', { exact: true }).selectOption({ label: 'Low balance' });
    await asked;
    await rowOf(page, all, 'Acme Dental').waitFor({ state: 'detached' });
    await lakeside.waitFor();
    const names = await page
      .getByRole('table', { name: all })
      .getByRole('row')
      .evaluateAll((rows) => rows.slice(1).map((row) => row.textContent ?? ''));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name).toContain('Low balance');
    await expectAccessible(page, 'All Organizations filtered to low balances');
  } finally {
    await context.close();
  }
});

/**
 * Harbor Realty is stopped by the monthly spend cap Northwind Digital set on it (the
 * demo sizes the cap below the tenant's month of usage, so events are refused at it). Its
 * parent's admin sees the "Cap reached" marker with this month's refusals on the list, keeps only
 * it with "Show: Cap reached", and reads the same count on its billing card.
 */
// Its cap is sized on the current month's usage and reached in it, but on the 1st (UTC), before
// the day's usage, the demo's refusals are all in the month before: nothing to see this month.
it.skipIf(new Date().getUTCDate() === 1)(
  'an agency admin finds Harbor through the palette, sees its cap marker and the refusal count, on the list and on its billing card',
  {
    timeout: 180_000,
  },
  async () => {
    const { server } = journey;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    try {
      await signInWithForm(page, server, demoEmail('agency_admin'), server.demoPassword!);

      // The child found through the palette, typed at once after opening it (once the shell that
      // listens for the shortcut is there): the organization, not a person of it.
      await page.getByRole('button', { name: MESSAGES.shell.palette.button }).waitFor();
      await page.keyboard.press('Control+k');
      await page.keyboard.type('harbor');
      const palette = page.getByRole('dialog');
      const found = palette
        .getByRole('group', { name: MESSAGES.shell.palette.groups.organizations })
        .getByRole('option', { name: /Harbor Realty/ });
      await found.waitFor();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/orgs\/[0-9a-f-]{36}$/);
      await page.getByRole('heading', { level: 1, name: /Harbor Realty/ }).waitFor();

      await page.goto(server.url('/orgs'));
      const children = 'Child Organizations';
      const harbor = rowOf(page, children, 'Harbor Realty');
      await harbor.waitFor();
      const text = (await harbor.textContent()) ?? '';
      expect(text).toContain(ORG_ATTENTION_LABELS.cap_reached);
      const refused = Number(/([\d,]+) refused this month/.exec(text)?.[1]?.replaceAll(',', ''));
      expect(refused).toBeGreaterThan(0);
      expect(text).toContain(MESSAGES.spendPages.capRefusedThisMonth(refused));
      expect(await rowOf(page, children, 'Acme Dental').textContent()).not.toContain(ORG_ATTENTION_LABELS.cap_reached);

      // The filter is the server's: only the children a cap stops.
      const asked = page.waitForRequest((request) => new URL(request.url()).searchParams.get('attention') === 'cap_reached');
      await page.getByLabel('Show', { exact: true }).selectOption({ label: ORG_ATTENTION_LABELS.cap_reached });
      await asked;
      await rowOf(page, children, 'Acme Dental').waitFor({ state: 'detached' });
      await harbor.waitFor();
      await expectAccessible(page, 'Child Organizations filtered to those at their spend cap');

      // Its billing card says why the bar is full, with the same count.
      const href = await harbor.getByRole('link', { name: 'Harbor Realty' }).getAttribute('href');
      await page.goto(server.url(`${href}/billing`));
      await page.getByText(MESSAGES.spendPages.capReachedRefusing(refused), { exact: true }).waitFor();
      await expectAccessible(page, "Harbor Realty's billing, stopped by its spend cap");
    } finally {
      await context.close();
    }
  },
);
