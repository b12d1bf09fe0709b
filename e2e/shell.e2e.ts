import { MESSAGES, UI } from '@console/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, openBrowser, signInWithForm, startServer, type TestBrowser, type TestServer } from './harness.ts';

let server: TestServer;
let browser: TestBrowser | undefined;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('switches to the dark theme and keeps it across a reload, under the CSP with no violation', async () => {
  browser = await openBrowser();
  const { page } = browser;
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  await signInWithForm(page, server, ADMIN.email, ADMIN.password);

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
  await browser?.close();
  browser = await openBrowser({ width: 375, height: 812 });
  const { page } = browser;
  await signInWithForm(page, server, ADMIN.email, ADMIN.password);

  expect(await page.getByRole('heading', { name: UI.productName }).count()).toBe(0);
  await page.getByRole('button', { name: 'Open menu' }).click();
  const sheet = page.getByRole('dialog', { name: MESSAGES.shell.menuTitle });
  await sheet.getByText(MESSAGES.shell.menuDescription).waitFor();
  await sheet.getByRole('link', { name: MESSAGES.shell.nav.team }).click();

  await page.waitForURL('**/team');
  await page.getByRole('heading', { level: 1, name: MESSAGES.shell.nav.team }).waitFor();
  await sheet.waitFor({ state: 'detached' });
});
