import { UI } from '@console/domain';
import { expect, it } from 'vitest';
import { ADMIN, signInWithForm, useJourney } from './harness.ts';
import { MESSAGES } from './wording.ts';

const journey = useJourney();

it('switches to the dark theme and keeps it across a reload, under the CSP with no violation', async () => {
  const page = await journey.freshPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  await signInWithForm(page, journey.server, ADMIN.email, ADMIN.password);

  await page.getByRole('button', { name: MESSAGES.shell.darkMode }).click();
  await page.getByRole('button', { name: MESSAGES.shell.lightMode }).waitFor();
  expect(await page.evaluate(() => document.documentElement.className)).toContain('dark');

  const reloaded = await page.reload();
  expect(reloaded?.headers()['content-security-policy']).toContain("script-src 'self'");
  await page.getByRole('button', { name: MESSAGES.shell.lightMode }).waitFor();
  expect(await page.evaluate(() => document.documentElement.className)).toContain('dark');
  expect(await page.evaluate((key) => localStorage.getItem(key), UI.themeStorageKey)).toBe('dark');
  expect(violations).toEqual([]);
});

it('at 375 px opens the Menu sheet from the menu button and navigates', async () => {
  const page = await journey.freshPage({ width: 375, height: 812 });
  await signInWithForm(page, journey.server, ADMIN.email, ADMIN.password);

  expect(await page.getByRole('heading', { name: UI.productName }).count()).toBe(0);
  await page.getByRole('button', { name: 'Open menu' }).click();
  const sheet = page.getByRole('dialog', { name: MESSAGES.shell.menuTitle });
  await sheet.getByText(MESSAGES.shell.menuDescription).waitFor();
  await sheet.getByRole('link', { name: MESSAGES.shell.nav.team }).click();

  await page.waitForURL('**/team');
  await page.getByRole('heading', { level: 1, name: MESSAGES.shell.nav.team }).waitFor();
  await sheet.waitFor({ state: 'detached' });
});
