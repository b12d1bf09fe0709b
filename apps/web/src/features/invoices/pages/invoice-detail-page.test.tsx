import type { InvoiceDetail } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiError, json, makeSession, mockApi, renderApp, type ApiRoutes, type SessionOptions } from '@/test/helpers';
import { CODE, detailOf, INVOICE, INVOICE_ID, paymentOf, PAYMENTS, REVERSE } from '@/test/invoice-data';
import { MESSAGES } from '../wording';
import { todayUtc } from '../format';

const w = MESSAGES.invoicePages;
const admin = { role: 'agency_admin', orgType: 'agency', orgName: 'Northwind' } as const;
const VOID = `POST /api/invoices/${INVOICE_ID}/void`;

function renderInvoice(options: SessionOptions, invoice: () => InvoiceDetail, extra: ApiRoutes = {}) {
  const session = makeSession(options);
  const api = mockApi({
    'GET /api/users/me': () => json(200, session.user),
    [INVOICE]: () => json(200, invoice()),
    // What a change invalidates reads again quietly.
    'GET /api/organizations': () => json(200, { organizations: [] }),
    ...extra,
  });
  renderApp(`/invoices/${INVOICE_ID}`, { session });
  return api;
}

const partlyPaid = () => detailOf({ payments: [paymentOf()], paid: '25.00', outstanding: '50.00', state: 'partially_paid' });

beforeAll(() => Promise.all([import('./invoice-detail-page'), import('@/app/shell/app-shell')]), 30_000);

describe('Invoice page', { timeout: 20_000 }, () => {
  it('shows the parties, lines, totals, dates, state in words and verification code', async () => {
    renderInvoice(admin, partlyPaid);
    expect(await screen.findByRole('heading', { level: 1, name: w.invoiceTitle('NW-000041') })).toBeInTheDocument();
    expect(screen.getByText('Partially paid')).toBeInTheDocument();
    expect(screen.getByText('Northwind Agency Ltd')).toBeInTheDocument();
    expect(screen.getByText('Dental Clinic LLC')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: w.lines.label })).toHaveTextContent('Credits allocated to Dental Clinic');
    const totals = screen.getByLabelText(w.totals.label);
    for (const [label, amount] of [
      [w.totals.subtotal, '62.50'],
      [w.totals.tax('VAT', '20'), '12.50'],
      [w.totals.total, '75.00'],
      [w.totals.paid, '25.00'],
      [w.totals.outstanding, '50.00'],
    ]) {
      expect(totals).toHaveTextContent(`${label}${amount} EUR`);
    }
    expect(screen.getByText(w.dueOn).nextElementSibling).toHaveTextContent('Mar 31, 2025');
    expect(screen.getByText(CODE)).toBeInTheDocument();
    expect(screen.getByRole('list', { name: w.paymentsLabel })).toHaveTextContent(
      w.paymentLine('25.00 EUR', 'Mar 5, 2025', 'Bank transfer'),
    );
  });

  it('Record payment starts from what is owed and today, sends the payment, and the figures follow without a reload', async () => {
    let invoice = detailOf();
    const api = renderInvoice(admin, () => invoice, {
      [PAYMENTS]: () => {
        invoice = partlyPaid();
        return json(201, invoice);
      },
      [`GET /api/organizations/${invoice.seller.id}/invoices`]: () =>
        json(200, { invoices: [], total: 0, page: 1, page_size: 25, total_pages: 0, can_manage: true }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: w.recordPayment }));
    const dialog = await screen.findByRole('dialog', { name: w.recordTitle('NW-000041') });
    const amount = within(dialog).getByLabelText(w.amount('EUR'));
    expect(amount).toHaveValue('75.00');
    expect(within(dialog).getByLabelText(w.paidOn)).toHaveValue(todayUtc());
    await user.clear(amount);
    await user.type(amount, '25');
    await user.selectOptions(within(dialog).getByLabelText(w.method), 'Card');
    await user.type(within(dialog).getByLabelText(w.reference), 'R-1');
    await user.click(within(dialog).getByRole('button', { name: w.record }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.bodiesOf(PAYMENTS)).toEqual([{ amount: '25.00', paid_on: todayUtc(), method: 'card', reference: 'R-1' }]);
    expect(await screen.findByText('Partially paid')).toBeInTheDocument();
    expect(screen.getByLabelText(w.totals.label)).toHaveTextContent(`${w.totals.outstanding}50.00 EUR`);
    expect(screen.getByText(w.recorded)).toBeInTheDocument();
  });

  it('shows the refusal of an overpayment in the dialog, on the amount', async () => {
    const message = MESSAGES.invoices.overpayment('75.00', 'EUR');
    renderInvoice(admin, () => detailOf(), {
      [PAYMENTS]: () => json(422, { error: { code: 'overpayment', message, fields: { amount: message } } }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: w.recordPayment }));
    const dialog = await screen.findByRole('dialog');
    const amount = within(dialog).getByLabelText(w.amount('EUR'));
    await user.clear(amount);
    await user.type(amount, '80');
    await user.click(within(dialog).getByRole('button', { name: w.record }));
    await waitFor(() => expect(amount).toHaveAttribute('aria-invalid', 'true'));
    expect(amount).toHaveAccessibleDescription(message);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(w.recordFailed);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(message);
  });

  it('Reverse asks for a reason, sends it, and the payment shows reversed', async () => {
    let invoice = partlyPaid();
    const api = renderInvoice(admin, () => invoice, {
      [REVERSE]: () => {
        invoice = detailOf({ payments: [paymentOf({ reversed_at: '2025-03-06T08:00:00.000Z', reverse_reason: 'Bounced' })] });
        return json(200, invoice);
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: w.reverseAria('25.00 EUR', 'Mar 5, 2025') }));
    const dialog = await screen.findByRole('dialog', { name: w.reverseTitle });
    await user.click(within(dialog).getByRole('button', { name: w.reverseConfirm }));
    expect(await within(dialog).findByText(MESSAGES.invoices.reasonRequired)).toBeInTheDocument();
    expect(api.callsTo(REVERSE)).toHaveLength(0);
    await user.type(within(dialog).getByLabelText(w.reason), 'Bounced');
    await user.click(within(dialog).getByRole('button', { name: w.reverseConfirm }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.bodiesOf(REVERSE)).toEqual([{ reason: 'Bounced' }]);
    expect(await screen.findByText(w.reversedBadge)).toBeInTheDocument();
    expect(screen.getByText('Open')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Reverse the payment/ })).not.toBeInTheDocument();
  });

  it('offers Void only without payments that count, and voids with a reason', async () => {
    let invoice = detailOf();
    const api = renderInvoice(admin, () => invoice, {
      [VOID]: () => {
        invoice = detailOf({ state: 'void', voided_at: '2025-03-07T08:00:00.000Z', void_reason: 'Issued twice' });
        return json(200, invoice);
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: w.void }));
    const dialog = await screen.findByRole('dialog', { name: w.voidTitle('NW-000041') });
    await user.type(within(dialog).getByLabelText(w.reason), 'Issued twice');
    await user.click(within(dialog).getByRole('button', { name: w.voidConfirm }));
    await waitFor(() => expect(api.bodiesOf(VOID)).toEqual([{ reason: 'Issued twice' }]));
    expect(await screen.findByText(w.voidedOn('Mar 7, 2025', 'Issued twice'))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: w.void })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: w.recordPayment })).not.toBeInTheDocument();
  });

  it('shows the billed child the invoice read-only, with its PDF downloaded with the session', async () => {
    const createObjectURL = vi.fn(() => 'blob:pdf');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('NW-000041.pdf');
    });
    const pdf = `GET /api/invoices/${INVOICE_ID}/pdf`;
    const api = renderInvoice({ role: 'tenant_admin', orgType: 'tenant' }, () => ({ ...partlyPaid(), can_manage: false }), {
      [pdf]: () =>
        new Response('%PDF-1.7', {
          status: 200,
          headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="NW-000041.pdf"' },
        }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: w.invoiceTitle('NW-000041') })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: w.recordPayment })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Reverse/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: w.void })).not.toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: w.downloadPdf }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const [call] = api.callsTo(pdf);
    expect(call!.headers.get('Accept')).toBe('application/pdf');
    expect(call!.headers.get('Authorization')).toMatch(/^Bearer /);
    expect(await screen.findByText(w.pdfDownloaded)).toBeInTheDocument();
    click.mockRestore();
  });

  it('answers an invoice the viewer may not see as not found', async () => {
    mockApi({
      'GET /api/users/me': () => json(200, makeSession(admin).user),
      [INVOICE]: () => apiError(404, 'not_found', MESSAGES.invoices.invoiceNotFound),
    });
    renderApp(`/invoices/${INVOICE_ID}`, { session: makeSession(admin) });
    expect(await screen.findByText(MESSAGES.invoices.invoiceNotFound)).toBeInTheDocument();
  });
});
