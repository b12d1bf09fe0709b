import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, makeSession, mockApi, renderApp, type ApiRoutes, type SessionOptions } from '@/test/helpers';
import { DETAILS, detailsOf, detailsResponse } from '@/test/invoice-data';
import { renderSettings } from '@/test/settings-data';
import { MESSAGES } from '../wording';

const d = MESSAGES.invoicePages.details;
const m = MESSAGES.invoices;
const admin = { role: 'agency_admin', orgType: 'agency', orgName: 'Northwind' } as const;

function renderDetails(options: SessionOptions, extra: ApiRoutes = {}, answer = detailsResponse()) {
  const session = makeSession(options);
  const api = mockApi({
    'GET /api/users/me': () => json(200, session.user),
    [`GET ${DETAILS}`]: () => json(200, answer),
    ...extra,
  });
  renderApp('/settings/billing-details', { session });
  return api;
}

beforeAll(() => Promise.all([import('./billing-details-page'), import('@/app/shell/app-shell'), import('@/app/settings-route')]), 30_000);

describe('Settings > Billing details', { timeout: 20_000 }, () => {
  it("shows the seller's details in the form, says changes apply to invoices not yet issued, and previews the next number as the prefix is typed", async () => {
    renderDetails(admin);
    expect(await screen.findByRole('heading', { level: 1, name: d.title })).toBeInTheDocument();
    expect(await screen.findByLabelText(d.legalName)).toHaveValue('Northwind Agency Ltd');
    expect(screen.getByLabelText(d.address)).toHaveValue('1 Harbour Street\nLondon');
    expect(screen.getByLabelText(d.currency)).toHaveValue('EUR');
    expect(screen.getByLabelText(d.creditPrice)).toHaveValue('0.0125');
    // The rate as one would type it, not as stored.
    expect(screen.getByLabelText(d.taxRate)).toHaveValue('20');
    expect(screen.getByLabelText(d.termsDays)).toHaveValue('30');
    expect(screen.getByText(d.appliesTo)).toBeInTheDocument();
    expect(screen.getByTestId('next-number')).toHaveTextContent(d.nextNumber('NW-000042'));

    const user = userEvent.setup();
    const prefix = screen.getByLabelText(d.numberPrefix);
    await user.clear(prefix);
    await user.type(prefix, 'ACME-');
    expect(screen.getByTestId('next-number')).toHaveTextContent(d.nextNumber('ACME-000042'));
    // Under Settings, and the navigation marks Settings.
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent(`Settings${d.title}`);
  });

  it("checks the fields with the domain's schema (the server's own messages) and sends nothing until they pass", async () => {
    const api = renderDetails(admin, { [`PUT ${DETAILS}`]: () => json(200, detailsResponse()) });
    const user = userEvent.setup();
    await user.clear(await screen.findByLabelText(d.legalName));
    const currency = screen.getByLabelText(d.currency);
    await user.clear(currency);
    await user.type(currency, 'EURO');
    await user.clear(screen.getByLabelText(d.taxRate));
    await user.type(screen.getByLabelText(d.taxRate), '101');
    await user.clear(screen.getByLabelText(d.termsDays));
    await user.click(screen.getByRole('button', { name: d.save }));

    expect(await screen.findByText(m.legalNameRequired)).toBeInTheDocument();
    expect(screen.getByLabelText(d.legalName)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(d.currency)).toHaveAccessibleDescription(`${d.currencyHint} ${m.currencyInvalid}`);
    expect(screen.getByText(m.taxRateInvalid)).toBeInTheDocument();
    // Empty terms are no terms, not 0 days.
    expect(screen.getByText(m.termsInvalid)).toBeInTheDocument();
    expect(api.callsTo(`PUT ${DETAILS}`)).toHaveLength(0);
  });

  it('saves through setBillingDetails with the body the schema makes (trimmed, currency upper-cased, empty note as null), then says so', async () => {
    const saved = detailsOf({ currency: 'USD', number_prefix: 'ACME-' });
    const api = renderDetails(admin, { [`PUT ${DETAILS}`]: () => json(200, detailsResponse(saved)) });
    const user = userEvent.setup();
    const currency = await screen.findByLabelText(d.currency);
    await user.clear(currency);
    await user.type(currency, ' usd ');
    await user.clear(screen.getByLabelText(d.numberPrefix));
    await user.type(screen.getByLabelText(d.numberPrefix), 'ACME-');
    await user.click(screen.getByRole('button', { name: d.save }));

    expect(await screen.findByText(d.saved)).toBeInTheDocument();
    expect(api.bodiesOf(`PUT ${DETAILS}`)).toEqual([
      {
        legal_name: 'Northwind Agency Ltd',
        address: '1 Harbour Street\nLondon',
        tax_id: 'GB123456789',
        currency: 'USD',
        credit_price: '0.0125',
        tax_rate: '20',
        tax_label: 'VAT',
        terms_days: 30,
        number_prefix: 'ACME-',
        note: null,
      },
    ]);
    expect(screen.getByLabelText(d.currency)).toHaveValue('USD');
  });

  it("puts the server's refusal of a field on that field", async () => {
    const message = m.creditPriceInvalid;
    renderDetails(admin, {
      [`PUT ${DETAILS}`]: () => json(422, { error: { code: 'validation_error', message, fields: { credit_price: message } } }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: d.save }));
    const field = screen.getByLabelText(d.creditPrice);
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByRole('alert')).toHaveTextContent(d.saveFailed);
  });

  it("shows a seller's other people the details read-only, without Save", async () => {
    renderDetails({ role: 'agency_user', orgType: 'agency', orgName: 'Northwind' }, {}, detailsResponse(detailsOf(), false));
    expect(await screen.findByText('Northwind Agency Ltd')).toBeInTheDocument();
    expect(screen.getByText(d.readOnly)).toBeInTheDocument();
    expect(screen.getByText(d.nextNumber('NW-000042'))).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: d.save })).not.toBeInTheDocument();
  });

  it('is reached from Settings by the people of a seller', async () => {
    renderSettings(admin);
    const link = await screen.findByRole('link', { name: d.settingsLink });
    expect(link).toHaveAttribute('href', '/settings/billing-details');
  });

  it('offers no billing details to a tenant, which bills nobody', async () => {
    renderSettings({ role: 'tenant_admin', orgType: 'tenant' });
    expect(await screen.findByRole('heading', { level: 1, name: MESSAGES.billingPages.settingsTitle })).toBeInTheDocument();
    await screen.findByText(MESSAGES.billingPages.yourProfile);
    expect(screen.queryByRole('link', { name: d.settingsLink })).not.toBeInTheDocument();
  });
});
