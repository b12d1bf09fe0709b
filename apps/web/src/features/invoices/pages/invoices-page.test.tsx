import type { InvoiceSummary, OrgStatus } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { json, makeSession, mockApi, OWN_ORG_ID, renderApp, setViewportWidth, type ApiRoutes, type SessionOptions } from '@/test/helpers';
import {
  CHILD_ID,
  DETAILS,
  detailOf,
  detailsResponse,
  draftOf,
  DRAFTS,
  INVOICE,
  INVOICE_ID,
  INVOICES,
  ISSUE,
  lineOf,
  OTHER_CHILD_ID,
  summaryOf,
} from '@/test/invoice-data';
import { makeList, makeOrganization } from '@/test/organization-data';
import { MESSAGES } from '../wording';

const w = MESSAGES.invoicePages;
const admin = { role: 'agency_admin', orgType: 'agency', orgName: 'Northwind' } as const;
const SECOND_ID = '00000000-0000-4000-8000-0000000001a2';

const list = (invoices: InvoiceSummary[], overrides: Record<string, unknown> = {}) =>
  json(200, { invoices, total: invoices.length, page: 1, page_size: 25, total_pages: 1, can_manage: true, ...overrides });

function renderInvoices(options: SessionOptions, routes: ApiRoutes, path = '/invoices', status: OrgStatus = 'active') {
  const session = makeSession(options);
  if (status !== 'active') session.user.organization = { ...session.user.organization, status };
  const api = mockApi({
    'GET /api/users/me': () => json(200, session.user),
    'GET /api/organizations': () =>
      json(
        200,
        makeList([
          makeOrganization({ id: CHILD_ID, name: 'Dental Clinic', org_type: 'tenant' }),
          makeOrganization({ id: OTHER_CHILD_ID, name: 'Eye Care', org_type: 'tenant' }),
        ]),
      ),
    ...routes,
  });
  renderApp(path, { session });
  return api;
}

beforeAll(() => Promise.all([import('./invoices-page'), import('./invoice-detail-page'), import('@/app/shell/app-shell')]), 30_000);

describe('Invoices', { timeout: 20_000 }, () => {
  it('lists the invoices a seller issued: number leading to its page, child, totals with currency and the state in words', async () => {
    renderInvoices(admin, {
      [INVOICES]: () =>
        list([
          summaryOf(),
          summaryOf({
            id: SECOND_ID,
            number: 'NW-000040',
            state: 'overdue',
            buyer: { id: OTHER_CHILD_ID, name: 'Eye Care' },
            total: '1234.50',
            outstanding: '1234.50',
          }),
        ]),
    });
    expect(await screen.findByRole('heading', { level: 1, name: w.title })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: w.invoicesLabel });
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByRole('link', { name: 'NW-000041' })).toHaveAttribute('href', `/invoices/${INVOICE_ID}`);
    expect(first).toHaveTextContent('Dental Clinic');
    expect(first).toHaveTextContent('75.00 EUR');
    expect(first).toHaveTextContent('Open');
    expect(second).toHaveTextContent('1,234.50 EUR');
    expect(second).toHaveTextContent('Overdue');
    expect(screen.getByRole('tab', { name: w.tabs.issued })).toHaveAttribute('aria-selected', 'true');
    // An agency sits below a super agency: it also receives invoices.
    expect(screen.getByRole('tab', { name: w.tabs.received })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' }).querySelector('[aria-current="page"]')).toHaveTextContent(w.title);
  });

  it('filters by state and by child, and pages, asking the server each time', async () => {
    const api = renderInvoices(admin, {
      [INVOICES]: (call) => list([summaryOf()], { total: 30, total_pages: 2, page: Number(call.query.page ?? 1) }),
    });
    const user = userEvent.setup();
    await screen.findByRole('table', { name: w.invoicesLabel });
    await user.selectOptions(screen.getByLabelText(w.stateFilter), 'overdue');
    await waitFor(() => expect(api.queriesOf(INVOICES).at(-1)).toMatchObject({ side: 'issued', state: 'overdue' }));
    await user.selectOptions(await screen.findByLabelText(w.childFilter), 'Eye Care');
    await waitFor(() => expect(api.queriesOf(INVOICES).at(-1)).toMatchObject({ state: 'overdue', buyer_id: OTHER_CHILD_ID }));
    expect(screen.getByTestId('location')).toHaveTextContent(`buyer_id=${OTHER_CHILD_ID}`);
    await user.click(await screen.findByRole('button', { name: w.next }));
    await waitFor(() => expect(api.queriesOf(INVOICES).at(-1)).toMatchObject({ page: '2', buyer_id: OTHER_CHILD_ID }));
    expect(await screen.findByText(w.pageOf(2, 2))).toBeInTheDocument();
  });

  it("shows each child's draft with its lines and totals, and Issue now asks, issues and opens the new invoice", async () => {
    const api = renderInvoices(
      admin,
      {
        [DRAFTS]: () =>
          json(200, {
            ready: true,
            currency: 'EUR',
            drafts: [
              draftOf({
                credit_lines: [
                  lineOf({
                    entry_id: '00000000-0000-4000-8000-0000000002b1',
                    kind: 'reversal',
                    credits: '-400.00',
                    amount: '-5.00',
                    description: 'Credits given back',
                  }),
                ],
                credit_total: '-6.00',
              }),
            ],
          }),
        [`GET ${DETAILS}`]: () => json(200, detailsResponse()),
        [ISSUE]: () => json(200, { invoices: [summaryOf({ kind: 'credit_note', id: SECOND_ID }), summaryOf()] }),
        [INVOICE]: () => json(200, detailOf()),
        [INVOICES]: () => list([]),
      },
      '/invoices?tab=drafts',
    );
    const drafts = await screen.findByRole('list', { name: w.draftsTitle });
    const lines = within(drafts).getByRole('table', { name: w.linesLabel('Dental Clinic') });
    expect(lines).toHaveTextContent('Credits allocated to Dental Clinic');
    expect(lines).toHaveTextContent('5,000.00');
    expect(lines).toHaveTextContent('62.50 EUR');
    expect(within(drafts).getByRole('table', { name: w.creditLinesLabel('Dental Clinic') })).toHaveTextContent('-5.00 EUR');
    const totals = within(drafts).getByLabelText(w.totals.label);
    expect(totals).toHaveTextContent(`${w.totals.subtotal}62.50 EUR`);
    expect(totals).toHaveTextContent(`${w.totals.tax('VAT', '20')}12.50 EUR`);
    expect(totals).toHaveTextContent(`${w.totals.total}75.00 EUR`);

    const user = userEvent.setup();
    await user.click(within(drafts).getByRole('button', { name: w.issueNowFor('Dental Clinic') }));
    const dialog = await screen.findByRole('alertdialog', { name: w.issueTitle('Dental Clinic') });
    expect(dialog).toHaveTextContent(w.issueBody('75.00 EUR', null));
    expect(dialog).toHaveTextContent(w.issueCreditNote('-6.00 EUR'));
    await user.click(within(dialog).getByRole('button', { name: w.issueConfirm }));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/invoices/${INVOICE_ID}`));
    expect(api.bodiesOf(ISSUE)).toEqual([{ buyer_id: CHILD_ID }]);
    expect(await screen.findByRole('heading', { level: 1, name: w.invoiceTitle('NW-000041') })).toBeInTheDocument();
  });

  it("keeps the server's refusal to issue in the dialog", async () => {
    renderInvoices(
      admin,
      {
        [DRAFTS]: () => json(200, { ready: true, currency: 'EUR', drafts: [draftOf()] }),
        [`GET ${DETAILS}`]: () => json(200, detailsResponse()),
        [ISSUE]: () => json(409, { error: { code: 'conflict', message: MESSAGES.invoices.nothingToIssue } }),
      },
      '/invoices?tab=drafts',
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: w.issueNowFor('Dental Clinic') }));
    const dialog = await screen.findByRole('alertdialog');
    // One document: the number it will take is said.
    expect(dialog).toHaveTextContent(w.issueBody('75.00 EUR', 'NW-000042'));
    await user.click(within(dialog).getByRole('button', { name: w.issueConfirm }));
    expect(await within(dialog).findByText(MESSAGES.invoices.nothingToIssue)).toBeInTheDocument();
  });

  it('offers Issue now only to those who may manage invoices: a frozen seller reads its drafts without it, its users see no drafts at all', async () => {
    renderInvoices(
      admin,
      {
        [DRAFTS]: () => json(200, { ready: true, currency: 'EUR', drafts: [draftOf()] }),
        [`GET ${DETAILS}`]: () => json(200, detailsResponse()),
      },
      '/invoices?tab=drafts',
      'suspended',
    );
    expect(await screen.findByRole('table', { name: w.linesLabel('Dental Clinic') })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: w.issueNowFor('Dental Clinic') })).not.toBeInTheDocument();
    // Exports read, so a frozen seller still has them.
    expect(screen.getByRole('button', { name: w.exportInvoices })).toBeInTheDocument();
  });

  it("shows a seller's users the issued invoices without drafts, exports or Issue now", async () => {
    const api = renderInvoices(
      { role: 'agency_user', orgType: 'agency' },
      { [INVOICES]: () => list([summaryOf()]) },
      '/invoices?tab=drafts',
    );
    expect(await screen.findByRole('table', { name: w.invoicesLabel })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: w.tabs.drafts })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: w.exportInvoices })).not.toBeInTheDocument();
    expect(api.callsTo(DRAFTS)).toHaveLength(0);
  });

  it('says where to set the billing details while drafts cannot be issued', async () => {
    renderInvoices(
      admin,
      {
        [DRAFTS]: () => json(200, { ready: false, currency: null, drafts: [draftOf()] }),
        [`GET ${DETAILS}`]: () => json(200, detailsResponse(null)),
      },
      '/invoices?tab=drafts',
    );
    expect(await screen.findByText(MESSAGES.invoices.detailsMissing)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: w.setDetails })).toHaveAttribute('href', '/settings/billing-details');
    expect(screen.queryByRole('button', { name: w.issueNowFor('Dental Clinic') })).not.toBeInTheDocument();
  });

  it('shows a tenant the invoices from its seller, read-only, on the Received tab', async () => {
    const api = renderInvoices(
      { role: 'tenant_admin', orgType: 'tenant' },
      {
        [INVOICES]: () => list([summaryOf({ state: 'paid', paid: '75.00', outstanding: '0.00' })], { can_manage: false }),
      },
    );
    expect(await screen.findByRole('heading', { level: 2, name: w.receivedFrom('Northwind') })).toBeInTheDocument();
    expect(api.queriesOf(INVOICES)[0]).toMatchObject({ side: 'received' });
    expect(screen.getByRole('tab', { name: w.tabs.received })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByRole('tab', { name: w.tabs.issued })).not.toBeInTheDocument();
    expect(screen.getByRole('table', { name: w.invoicesLabel })).toHaveTextContent('Paid');
    expect(screen.queryByLabelText(w.childFilter)).not.toBeInTheDocument();
  });

  it('exports the invoices and the payments of the chosen month as CSV downloads', async () => {
    const createObjectURL = vi.fn(() => 'blob:invoices');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const csv = (name: string) => () =>
      new Response('number,total\r\n', {
        status: 200,
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename="${name}"` },
      });
    const api = renderInvoices(admin, {
      [INVOICES]: () => list([summaryOf()]),
      [`GET /api/organizations/${OWN_ORG_ID}/invoices/export`]: csv('invoices-2025-01.csv'),
      [`GET /api/organizations/${OWN_ORG_ID}/payments/export`]: csv('payments-2025-01.csv'),
    });
    const user = userEvent.setup();
    const month = await screen.findByLabelText(w.exportMonth);
    const chosen = (month as HTMLSelectElement).options[3]!.value;
    await user.selectOptions(month, chosen);
    await user.click(screen.getByRole('button', { name: w.exportInvoices }));
    await waitFor(() => expect(names).toEqual(['invoices-2025-01.csv']));
    await user.click(screen.getByRole('button', { name: w.exportPayments }));
    await waitFor(() => expect(names).toEqual(['invoices-2025-01.csv', 'payments-2025-01.csv']));
    expect(api.queriesOf(`GET /api/organizations/${OWN_ORG_ID}/invoices/export`)).toEqual([{ month: chosen }]);
    expect(api.queriesOf(`GET /api/organizations/${OWN_ORG_ID}/payments/export`)).toEqual([{ month: chosen }]);
    click.mockRestore();
  });

  it('shows each invoice as a card of its own on a 390 px screen', async () => {
    setViewportWidth(390);
    renderInvoices(admin, { [INVOICES]: () => list([summaryOf()]) });
    const cards = await screen.findByRole('list', { name: w.invoicesLabel });
    const [card] = within(cards).getAllByRole('listitem');
    expect(within(card!).getByRole('link', { name: 'NW-000041' })).toBeInTheDocument();
    expect(card).toHaveTextContent(`${w.columns.total}75.00 EUR`);
    expect(card).toHaveTextContent('Open');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
