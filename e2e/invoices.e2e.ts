import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INVOICE_STATE_LABELS, type UserProfile } from '@console/domain';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, createChild, inviteAndRegister, signInWithForm, useJourney, widthReport } from './harness.ts';
import { MESSAGES } from './wording.ts';

const PASSWORD = 'invoices journey password 1';
const w = MESSAGES.invoicePages;
const d = w.details;
const TENANT = 'Bright Smile Dental';
// 100 credits at 1.50 EUR: 150.00, VAT 20 % 30.00, total 180.00; paid 80.00 then 100.00.
const NUMBER = 'AGY-000001';
const TOTAL = '180.00';

const journey = useJourney();

async function ok<T>(path: string, token: string, body?: unknown): Promise<T> {
  const response = await journey.server.api<T>(path, { method: body === undefined ? 'GET' : 'POST', token, body });
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body;
}

/** The page no wider than the window (an element reaching past it is named). */
async function expectFits(page: Page) {
  const { scrollWidth, innerWidth, wide } = await widthReport(page);
  expect(scrollWidth, `${new URL(page.url()).pathname} is ${scrollWidth} px wide: ${wide.join(' | ')}`).toBeLessThanOrEqual(innerWidth);
}

it('an agency sets its billing details, issues its clinic an invoice with a PDF, records a partial then a full payment, and the clinic sees it paid', {
  timeout: 120_000,
}, async () => {
  const { server } = journey;
  // Setup through the API: house > super agency > agency > tenant, 100 credits allocated to the tenant.
  const houseToken = await server.signIn(ADMIN.email, ADMIN.password);
  const houseId = (await ok<UserProfile>('/api/users/me', houseToken)).organization_id!;
  await ok('/api/credits/adjustments', houseToken, { direction: 'increase', amount: '1000', reason: 'Invoice journey funds' });
  const superAgency = await createChild(server, houseToken, 'Invoice Super', 'super_agency');
  await ok('/api/credits/allocations', houseToken, { from_org_id: houseId, to_org_id: superAgency.id, amount: '500' });
  const superToken = await inviteAndRegister(server, {
    inviterToken: houseToken,
    houseToken,
    organizationId: superAgency.id,
    role: 'super_agency_admin',
    email: 'super@invoices.test',
    password: PASSWORD,
  });
  const agency = await createChild(server, superToken, 'Invoice Agency', 'agency');
  await ok('/api/credits/allocations', superToken, { from_org_id: superAgency.id, to_org_id: agency.id, amount: '300' });
  const agencyToken = await inviteAndRegister(server, {
    inviterToken: superToken,
    houseToken,
    organizationId: agency.id,
    role: 'agency_admin',
    email: 'agency@invoices.test',
    password: PASSWORD,
  });
  const tenant = await createChild(server, agencyToken, TENANT, 'tenant');
  await ok('/api/credits/allocations', agencyToken, { from_org_id: agency.id, to_org_id: tenant.id, amount: '100' });
  await inviteAndRegister(server, {
    inviterToken: agencyToken,
    houseToken,
    organizationId: tenant.id,
    role: 'tenant_admin',
    email: 'tenant@invoices.test',
    password: PASSWORD,
  });

  // 1. The agency admin sets its billing details (the sign-in just now is the step-up the save asks for).
  const page = await journey.freshPage({ width: 1280, height: 800 });
  await signInWithForm(page, server, 'agency@invoices.test', PASSWORD);
  await page.goto(server.url('/settings/billing-details'));
  await page.getByRole('heading', { level: 1, name: d.title }).waitFor();
  await page.getByLabel(d.legalName).fill('Invoice Agency Ltd');
  await page.getByLabel(d.address).fill('1 Market Street\nDublin');
  await page.getByLabel(d.currency).fill('EUR');
  await page.getByLabel(d.creditPrice).fill('1.5');
  await page.getByLabel(d.taxRate).fill('20');
  await page.getByLabel(d.taxLabel).fill('VAT');
  await page.getByLabel(d.termsDays).fill('30');
  await page.getByLabel(d.numberPrefix).fill('AGY-');
  await page
    .getByTestId('next-number')
    .filter({ hasText: d.nextNumber(NUMBER) })
    .waitFor();
  await page.getByRole('button', { name: d.save }).click();
  await page.getByText(d.saved).waitFor();
  await expectAccessible(page, 'billing details page');

  // 2. The Drafts tab holds the tenant's 100 credits; Issue now opens the new invoice.
  await page.goto(server.url('/invoices?tab=drafts'));
  await page.getByRole('tab', { name: w.tabs.drafts, selected: true }).waitFor();
  await page.getByRole('table', { name: w.linesLabel(TENANT) }).waitFor();
  await expectAccessible(page, 'invoice drafts tab');
  await page.getByRole('button', { name: w.issueNowFor(TENANT) }).click();
  const issue = page.getByRole('alertdialog', { name: w.issueTitle(TENANT) });
  await issue.getByText(NUMBER).waitFor();
  await issue.getByRole('button', { name: w.issueConfirm }).click();
  const title = page.getByRole('heading', { level: 1, name: w.invoiceTitle(NUMBER) });
  await title.waitFor();
  // The state badge stands beside the title (the totals below also say "Paid").
  const state = (label: string) => title.locator('..').getByText(label, { exact: true });
  await state(INVOICE_STATE_LABELS.open).waitFor();

  // 3. Download PDF saves a real PDF holding the number and the total.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: w.downloadPdf }).click()]);
  const dir = mkdtempSync(join(tmpdir(), 'invoice-journey-'));
  try {
    const file = join(dir, 'invoice.pdf');
    await download.saveAs(file);
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain(NUMBER);
    expect(text).toContain(TOTAL);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // 4. A partial payment, then the rest (the dialog offers what is still owed): the state follows without a reload
  // (a mark left on the window survives only if the page is never loaded again).
  await page.evaluate(() => Reflect.set(window, 'invoiceJourneyMark', true));
  await page.getByRole('button', { name: w.recordPayment }).click();
  let dialog = page.getByRole('dialog', { name: w.recordTitle(NUMBER) });
  await dialog.getByLabel(w.amount('EUR')).fill('80.00');
  await dialog.getByLabel(w.method).selectOption('bank_transfer');
  await dialog.getByLabel(w.reference).fill('SEPA-1');
  await expectAccessible(page, 'invoice page with the payment dialog open');
  await dialog.getByRole('button', { name: w.record }).click();
  await dialog.waitFor({ state: 'detached' });
  await state(INVOICE_STATE_LABELS.partially_paid).waitFor();

  await page.getByRole('button', { name: w.recordPayment }).click();
  dialog = page.getByRole('dialog', { name: w.recordTitle(NUMBER) });
  expect(await dialog.getByLabel(w.amount('EUR')).inputValue()).toBe('100.00');
  expect(await dialog.getByLabel(w.paidOn).inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await dialog.getByLabel(w.reference).fill('SEPA-2');
  await dialog.getByRole('button', { name: w.record }).click();
  await dialog.waitFor({ state: 'detached' });
  await state(INVOICE_STATE_LABELS.paid).waitFor();
  // Nothing is owed: Record payment is gone.
  expect(await page.getByRole('button', { name: w.recordPayment }).count()).toBe(0);
  expect(await page.evaluate(() => Reflect.get(window, 'invoiceJourneyMark'))).toBe(true);

  // 5. The clinic's admin, at 390 px, sees the invoice paid on its Received tab, and the page fits.
  const clinic = await journey.freshPage({ width: 390, height: 844 });
  await signInWithForm(clinic, server, 'tenant@invoices.test', PASSWORD);
  await clinic.goto(server.url('/invoices'));
  await clinic.getByRole('tab', { name: w.tabs.received, selected: true }).waitFor();
  const received = clinic.getByRole('list', { name: w.invoicesLabel, exact: true });
  await received.getByRole('link', { name: NUMBER }).waitFor();
  await received.getByText(INVOICE_STATE_LABELS.paid, { exact: true }).waitFor();
  await clinic.waitForLoadState('networkidle');
  await expectFits(clinic);
  await expectAccessible(clinic, "the clinic's received invoices");
});
