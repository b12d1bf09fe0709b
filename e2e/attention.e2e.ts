import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { demoEmail, launchBrowser, signInWithForm, useJourney } from './harness.ts';

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
