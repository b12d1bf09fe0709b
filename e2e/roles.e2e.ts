import { ORG_TYPES, UI, rolesForOrgType } from '@console/domain';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axeViolations, describeViolations } from './axe.ts';
import { demoEmail, launchBrowser, tablesScrollingSideways, useJourney, widthReport } from './harness.ts';
import { MESSAGES } from './wording.ts';

/**
 * Every role of the demo, every screen it is offered: each person signs in, and at 1280 px in
 * the light and the dark theme follows every navigation item and every tool link of the
 * dashboard. One theme then walks the same at 390 px (the menu sheet for navigation), the other
 * every other link the dashboard's overview shows (child and recent organizations, the list) and
 * the Resources page's quick links; which theme does which alternates from role to role, so
 * both themes are seen at both widths while each page is not walked four times over. No page
 * ends on a refusal or a load error, no request is answered 403 (a page asked for what the
 * role may not have), none is wider than the window, the header never cuts the page's title,
 * no table scrolls sideways at 1280 px (its last columns hidden), and axe finds nothing
 * serious. The theme that walks the in-page links also resizes each page it sees through
 * SWEEP_WIDTHS (360 to 1440 px), so no page is wider than the window, nor its title cut, at
 * any of those widths either. The items
 * are read from the page, so new ones are walked as soon as they are shown.
 *
 * On PostgreSQL (DATABASE_URL set) the same walk checks what depends on the database: every
 * page settles with its data, ends on no refusal or load error, and asks nothing answered 403.
 * What the page looks like (its width, axe) does not depend on the database and is checked on
 * the embedded one, where CI walks every role too: axe is most of a walk's time.
 */

const journey = useJourney({ demo: true });
/** Width and axe are checked on the embedded database only (see above). */
const LOOKS = !process.env.DATABASE_URL;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const WIDTHS = [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'narrow', width: 390, height: 844 },
] as const;
const THEMES = ['light', 'dark'] as const;
/**
 * The other widths each page is measured at, from the smallest phone to a large screen, on
 * the page already loaded at 1280 px: resizing and measuring cost little, a load much more.
 */
const SWEEP_WIDTHS = [360, 600, 768, 834, 900, 1024, 1440] as const;

/** What a page says when it is a dead end: a refusal, a missing record or a failed load. */
const DEAD_ENDS: string[] = [
  MESSAGES.auth.accessDenied,
  MESSAGES.organizations.permissionDenied,
  MESSAGES.teamPages.statUnavailable,
  MESSAGES.generic.notFound,
  MESSAGES.organizations.notFound,
  MESSAGES.users.notFound,
];

/**
 * Waits until the page has settled: a first-level heading in the main region and no
 * loading status (the route's Suspense fallback, a query's spinner or skeleton rows), twice
 * in a row a frame apart, since one query ending may start the next.
 */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const w = window as unknown as { __settled?: number };
      const busy =
        !document.querySelector('main h1') ||
        // The page navigated from, kept on screen while the next one loads.
        !!document.querySelector('main h1[data-e2e-left]') ||
        [...document.querySelectorAll('[role="status"]')].some((status) => status.textContent?.includes('Loading'));
      w.__settled = busy ? 0 : (w.__settled ?? 0) + 1;
      return w.__settled >= 3;
    },
    undefined,
    { polling: 'raf', timeout: 30_000 },
  );
}

/**
 * Marks the page's heading as the one left for another page, so that settle() waits for the
 * next page's own (a tab of the same page keeps its heading).
 */
async function leaving(page: Page, to: string): Promise<void> {
  await page.evaluate((path) => {
    if (path !== location.pathname) document.querySelector('main h1')?.setAttribute('data-e2e-left', '');
  }, new URL(to, 'http://x').pathname);
}

/** The dead-end texts the page shows in an alert, or as a whole element's text. */
async function deadEndsOn(page: Page): Promise<string[]> {
  return page.evaluate((texts) => {
    const alerts = [...document.querySelectorAll('[role="alert"]')].map((alert) => alert.textContent ?? '');
    const found = texts.filter(
      (text) =>
        alerts.some((alert) => alert.includes(text)) ||
        [...document.querySelectorAll('main *')].some((element) => element.childElementCount === 0 && element.textContent?.trim() === text),
    );
    if ([...document.querySelectorAll('main button')].some((button) => button.textContent?.trim() === 'Retry'))
      found.push('a load error (Retry)');
    return found;
  }, DEAD_ENDS);
}

/** The header's page title when it does not fit its place (shown cut, with an ellipsis), or null. */
function titleCut(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const title = document.querySelector<HTMLElement>('[data-testid="page-title"]');
    return title && title.scrollWidth > title.clientWidth + 1 ? `"${title.textContent}" in ${title.clientWidth} px` : null;
  });
}

/**
 * The page resized to `width`: what is wrong there (the page wider than the window, the
 * title cut), or null. One round trip when all is well: it waits two frames, so that what a
 * resize changes (a media query's re-render) is laid out, then measures.
 */
async function widthAt(page: Page, width: number, height: number): Promise<string | null> {
  await page.setViewportSize({ width, height });
  const found = await page.evaluate(
    () =>
      new Promise<{ fits: boolean; cut: string | null }>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            const title = document.querySelector<HTMLElement>('[data-testid="page-title"]');
            resolve({
              fits: document.documentElement.scrollWidth <= window.innerWidth,
              cut: title && title.scrollWidth > title.clientWidth + 1 ? `"${title.textContent}" in ${title.clientWidth} px` : null,
            });
          }),
        ),
      ),
  );
  if (found.cut) return `the header cuts the page's title: ${found.cut}`;
  if (found.fits) return null;
  // The full report (which walks every element) only when the page is too wide.
  const { scrollWidth, innerWidth, wide } = await widthReport(page);
  return scrollWidth > innerWidth ? `${scrollWidth} px wide in a ${innerWidth} px window: ${wide.join(' | ')}` : null;
}

/** Opens the menu sheet (narrow screens) and returns its navigation. */
async function openMenu(page: Page) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  const nav = page.getByRole('dialog', { name: MESSAGES.shell.menuTitle }).getByRole('navigation', { name: 'Main' });
  await nav.waitFor();
  return nav;
}

/** The links of a part of the page, as their text and address. */
function linksOf(locator: Locator): Promise<{ name: string; href: string }[]> {
  return locator.getByRole('link').evaluateAll((anchors) =>
    anchors.map((anchor) => ({
      name: (anchor.querySelector('.font-medium') ?? anchor).textContent?.trim() ?? '',
      href: anchor.getAttribute('href') ?? '',
    })),
  );
}

const pathOf = (url: URL) => `${url.pathname}${url.search}`;

/**
 * One person in one theme: signs in, and at each width it walks checks the dashboard, follows
 * each of its tools (back to the dashboard after each), then each navigation item; with
 * `inPage`, the in-page links at the wide width too. Returns what is wrong and the pages walked.
 */
async function walk(
  role: string,
  theme: (typeof THEMES)[number],
  parts: { narrow: boolean; inPage: boolean },
): Promise<{ problems: string[]; visited: Set<string> }> {
  // The theme that walks the in-page links measures each page it sees at every width of the sweep.
  const sweep = LOOKS && parts.inPage;
  const { server } = journey;
  // The stored choice, as the theme toggle stores it, and the device's preference alike.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: theme });
  await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [UI.themeStorageKey, theme] as const);
  // The machine is shared: a page may take its time under load.
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const problems: string[] = [];
  const visited = new Set<string>();
  // Every refused request is a problem, wherever it happens: the page asked what the role may not have.
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (response.status() === 403 && url.pathname.startsWith('/api/')) {
      problems.push(`${role} ${theme}: ${response.request().method()} ${pathOf(url)} answered 403 on ${pathOf(new URL(page.url()))}`);
    }
  });
  try {
    await page.goto(server.url('/login'));
    await page.getByLabel('Email', { exact: true }).fill(demoEmail(role));
    await page.getByRole('button', { name: MESSAGES.auth.continue, exact: true }).click();
    await page.getByLabel('Password', { exact: true }).fill(server.demoPassword!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');
    // The toast that greets the person, once it has faded in (it shows for 4 s: a page slow
    // under load may have dropped it already, and the keyboard journey checks one too).
    const greeted = page.locator('[data-sonner-toast][data-mounted="true"]').filter({ hasText: MESSAGES.auth.loginSuccessful });
    if (
      LOOKS &&
      (await greeted.waitFor({ timeout: 3_000 }).then(
        () => true,
        () => false,
      ))
    ) {
      // Its fade-in has ended: the transition's own time, then whatever of it a loaded machine has
      // not finished yet (axe once read a half-faded text).
      await page.waitForTimeout(450);
      await greeted
        .evaluate((toast) => Promise.all(toast.getAnimations({ subtree: true }).map((animation) => animation.finished)))
        .catch(() => undefined);
      // Gone meanwhile, it is not checked (axe finds nothing to include).
      const toast = await axeViolations(page, { include: '[data-sonner-toaster]' }).catch(() => []);
      if (toast.length) problems.push(describeViolations(`${role} ${theme} sign-in toast`, toast));
    }

    for (const { name: widthName, width, height } of parts.narrow ? WIDTHS : WIDTHS.slice(0, 1)) {
      const narrow = width < UI.narrowBreakpointPx;
      await page.setViewportSize({ width, height });
      await page.goto(server.url('/dashboard'));
      const at = (label: string) => `${role} ${theme} ${widthName} ${label} (${pathOf(new URL(page.url()))})`;

      const checkedHere = new Set<string>();
      const check = async (label: string) => {
        const where = at(label);
        visited.add(pathOf(new URL(page.url())));
        checkedHere.add(pathOf(new URL(page.url())));
        try {
          await settle(page);
        } catch {
          const shown = await page.evaluate(() => ({
            h1: [...document.querySelectorAll('h1')].map((h) => h.textContent).join(' | '),
            loading: document.querySelectorAll('[role="status"]').length,
          }));
          problems.push(`${where}: did not settle (headings: ${shown.h1 || 'none'}; ${shown.loading} status elements)`);
          return;
        }
        const dark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
        if (dark !== (theme === 'dark')) problems.push(`${where}: the ${theme} theme is not applied`);
        const deadEnds = await deadEndsOn(page);
        if (deadEnds.length) problems.push(`${where}: ends on ${deadEnds.join(', ')}`);
        if (!LOOKS) return;
        const { scrollWidth, innerWidth, wide } = await widthReport(page);
        if (scrollWidth > innerWidth) problems.push(`${where}: ${scrollWidth} px wide in a ${innerWidth} px window: ${wide.join(' | ')}`);
        const cut = await titleCut(page);
        if (cut) problems.push(`${where}: the header cuts the page's title: ${cut}`);
        // On a wide screen a table fits its card: none scrolls sideways, hiding its last columns.
        if (!narrow) {
          const scrolled = await tablesScrollingSideways(page);
          if (scrolled.length) problems.push(`${where}: tables scroll sideways at ${width} px: ${scrolled.join(' | ')}`);
        }
        const violations = await axeViolations(page);
        if (violations.length) problems.push(describeViolations(where, violations));
        if (!sweep || narrow) return;
        for (const other of SWEEP_WIDTHS) {
          const swept = await widthAt(page, other, height);
          if (swept) problems.push(`${where} at ${other} px: ${swept}`);
        }
        // Back to the walk's own width (its navigation depends on it), laid out before the next click.
        await widthAt(page, width, height);
      };

      await check('Dashboard');
      const tools = await linksOf(page.getByRole('region', { name: MESSAGES.dashboardPages.tools }));
      // Two tools may lead to one page (seen in two lights): it is walked once.
      for (const [index, tool] of tools.entries()) {
        if (tools.findIndex((other) => other.href === tool.href) !== index) continue;
        await leaving(page, tool.href);
        await page.getByRole('region', { name: MESSAGES.dashboardPages.tools }).getByRole('link').nth(index).click();
        await page.waitForURL((url) => pathOf(url) === tool.href);
        await check(`tool "${tool.name}"`);
        await leaving(page, '/dashboard');
        await page.goBack();
        try {
          await settle(page);
        } catch {
          problems.push(`${at(`Back from tool "${tool.name}"`)}: the dashboard did not come back`);
          await page.goto(server.url('/dashboard'));
          await settle(page);
        }
      }

      const items = await linksOf(narrow ? await openMenu(page) : page.getByRole('navigation', { name: 'Main' }));
      if (!items.length) problems.push(`${at('')}: no navigation items`);
      if (narrow) {
        // The menu sheet itself, open over the page.
        const violations = LOOKS ? await axeViolations(page) : [];
        if (violations.length) problems.push(describeViolations(at('menu sheet'), violations));
        await page.keyboard.press('Escape');
      }
      for (const item of items) {
        // A page checked above at this width (the dashboard, a tool's page) is not checked again.
        if (checkedHere.has(item.href)) continue;
        const nav = narrow ? await openMenu(page) : page.getByRole('navigation', { name: 'Main' });
        await leaving(page, item.href);
        await nav.getByRole('link', { name: item.name, exact: true }).click();
        await page.waitForURL((url) => pathOf(url) === item.href);
        await check(`nav "${item.name}"`);
      }

      // The links inside pages, once per person (at the wide width): each is clicked on its
      // page, checked, and the page opened again for the next.
      if (narrow || !parts.inPage) continue;
      const inPage = async (from: string, label: string, scope: (page: Page) => Locator) => {
        let onFrom = false;
        const open = async () => {
          if (onFrom) return;
          await leaving(page, from);
          await page.goto(server.url(from));
          await settle(page);
          onFrom = true;
        };
        await open();
        const links = (await linksOf(scope(page))).filter((link) => link.href.startsWith('/'));
        for (const link of links) {
          if (checkedHere.has(link.href)) continue;
          await open();
          await leaving(page, link.href);
          await scope(page).locator(`a[href="${link.href}"]`).first().click();
          onFrom = false;
          await page.waitForURL((url) => pathOf(url) === link.href);
          await check(`${label} link "${link.name}"`);
        }
      };
      await inPage('/dashboard', 'dashboard', (p) => p.locator('main [role="tabpanel"][data-state="active"]'));
      await inPage('/resources', 'Resources quick', (p) => p.getByRole('navigation', { name: MESSAGES.billingPages.quickLinks }));
    }
  } finally {
    await context.close();
  }
  return { problems, visited };
}

/** At most this many people walk at once (two contexts each, one a theme). */
const ROLES_AT_ONCE = 2;
const waiting: (() => void)[] = [];
let walking = 0;
async function turn<T>(work: () => Promise<T>): Promise<T> {
  if (walking < ROLES_AT_ONCE) walking++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    // The turn passes to the next in line, or is given back.
    const next = waiting.shift();
    if (next) next();
    else walking--;
  }
}

/** Every role of the demo, or with E2E_ROLES (comma-separated) only those, for a walk by hand. */
const ALL_DEMO_ROLES = ORG_TYPES.flatMap((type) => rolesForOrgType(type));
const chosen = process.env.E2E_ROLES?.split(',')
  .map((role) => role.trim())
  .filter(Boolean);
const unknown = chosen?.filter((role) => !(ALL_DEMO_ROLES as string[]).includes(role));
if (unknown?.length) throw new Error(`E2E_ROLES names no demo role: ${unknown.join(', ')} (the roles are ${ALL_DEMO_ROLES.join(', ')})`);

for (const [index, role] of (chosen ? ALL_DEMO_ROLES.filter((r) => chosen.includes(r)) : ALL_DEMO_ROLES).entries()) {
  // The theme that walks the narrow width this time; the other walks the in-page links.
  const narrowTheme = THEMES[index % THEMES.length];
  it.concurrent(`${role}: every navigation item and dashboard tool at 1280 px light and dark and at 390 px ${narrowTheme}, and every in-page link, opens without a 403${LOOKS ? `, fits at every width from ${SWEEP_WIDTHS[0]} to ${SWEEP_WIDTHS.at(-1)} px and passes axe` : ' or a dead end (width and axe: on the embedded database)'}`, {
    // Counted from the start, the wait for a turn included: the in-page links made each walk longer.
    timeout: 900_000,
  }, async () => {
    const walks = await turn(() =>
      Promise.all(THEMES.map((theme) => walk(role, theme, { narrow: theme === narrowTheme, inPage: theme !== narrowTheme }))),
    );
    const problems = walks.flatMap((w) => w.problems);
    expect(
      walks.map((w) => w.visited.size).every((size) => size > 1),
      `${role} walked only the dashboard`,
    ).toBe(true);
    expect(problems, problems.join('\n')).toEqual([]);
  });
}

/** Presses Tab (Shift+Tab with `back`) until the element has the focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, options: { back?: boolean; max?: number } = {}): Promise<void> {
  const { back = false, max = 80 } = options;
  await target.waitFor();
  for (let presses = 0; presses <= max; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${max} presses of ${back ? 'Shift+Tab' : 'Tab'} did not reach ${target}`);
}

it.concurrent('the main flows by keyboard alone: sign in, open a list, open an organization, open and submit a dialog', {
  timeout: 600_000,
}, async () => {
  const { server } = journey;
  const p = MESSAGES.creditPages;
  await turn(async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    try {
      await page.goto(server.url('/login'));
      await tabTo(page, page.getByLabel('Email', { exact: true }));
      await page.keyboard.type(demoEmail('house_admin'));
      // E-mail first: Enter continues to the password, which then has the focus.
      await page.keyboard.press('Enter');
      await tabTo(page, page.getByLabel('Password', { exact: true }));
      await page.keyboard.type(server.demoPassword!);
      await page.keyboard.press('Enter');
      await page.waitForURL('**/dashboard');
      await settle(page);

      // A list from the navigation, and an organization from the list.
      await tabTo(
        page,
        page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: MESSAGES.shell.nav.organizations, exact: true }),
      );
      await leaving(page, '/orgs');
      await page.keyboard.press('Enter');
      await page.waitForURL('**/orgs');
      await settle(page);
      const first = page.getByRole('main').getByRole('link', { name: 'Northwind Partners', exact: true }).first();
      await tabTo(page, first);
      await leaving(page, '/orgs/x');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/orgs\/[0-9a-f-]{36}$/);
      await settle(page);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Northwind Partners');
      await expectNoViolations(page, 'keyboard: organization page');

      // A dialog: opened, filled and submitted from the keyboard; the focus stays inside it.
      await tabTo(
        page,
        page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: MESSAGES.shell.nav.creditLedger, exact: true }),
        { back: true },
      );
      await leaving(page, '/credit-ledger');
      await page.keyboard.press('Enter');
      await page.waitForURL('**/credit-ledger');
      await settle(page);
      await tabTo(page, page.getByRole('button', { name: p.adjustBalance }));
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: p.adjustBalance });
      await dialog.waitFor();
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      await expectNoViolations(page, 'keyboard: Adjust balance dialog');
      await tabTo(page, dialog.getByLabel('Amount'));
      await page.keyboard.type('12.50');
      await tabTo(page, dialog.getByLabel('Reason'));
      await page.keyboard.type('Keyboard journey');
      await tabTo(page, dialog.getByRole('button', { name: 'Save adjustment' }));
      await page.keyboard.press('Enter');
      await page.getByText(p.adjusted).first().waitFor();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('main').getByText('Keyboard journey').first().waitFor();
    } finally {
      await context.close();
    }
  });
});

async function expectNoViolations(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, describeViolations(where, violations)).toEqual([]);
}
