import { makeDashboard } from '../test-support';
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  json,
  makeSession,
  mockApi,
  OWN_ORG_ID,
  renderApp,
  renderWithProviders,
  setViewportWidth,
  type SessionOptions,
} from '@/test/helpers';
import { CHILD_ID, OTHER_CHILD_ID, RECEIVABLES, receivablesOf } from '@/test/invoice-data';
import { MESSAGES } from '../wording';
import { ReceivablesCard } from './receivables-card';

const r = MESSAGES.invoicePages.receivables;

function showDashboard(options: Required<Pick<SessionOptions, 'role' | 'orgType'>>) {
  const session = makeSession({ ...options, orgName: 'Acme Corporation' });
  const api = mockApi((call) => {
    if (call.path === '/api/users/me') return json(200, session.user);
    if (call.path === '/api/dashboard') return json(200, makeDashboard(options.orgType));
    if (`GET ${call.path}` === RECEIVABLES) return json(200, receivablesOf());
    return undefined;
  });
  renderApp('/dashboard', { session });
  return api;
}

beforeAll(() => Promise.all([import('../pages/dashboard-page'), import('@/app/shell/app-shell')]), 30_000);

describe('Receivables card', { timeout: 20_000 }, () => {
  it('shows what each child owes by age, its overdue invoices and the way to its invoices, then the totals', async () => {
    mockApi({ [RECEIVABLES]: () => json(200, receivablesOf()) });
    renderWithProviders(<ReceivablesCard organizationId={OWN_ORG_ID} />);
    const table = await screen.findByRole('table', { name: r.label });
    const [head, clinic, eyes, totals] = within(table).getAllByRole('row');
    expect(head).toHaveTextContent(`${r.child}${r.days0to30}${r.days31to60}${r.days61plus}${r.total}${r.overdue}`);
    expect(clinic).toHaveTextContent('Dental Clinic75.00 EUR0.00 EUR120.00 EUR195.00 EUR');
    expect(clinic).toHaveTextContent(r.overdueCount(1));
    expect(within(clinic!).getByRole('link', { name: r.invoicesOf('Dental Clinic') })).toHaveAttribute(
      'href',
      `/invoices?tab=issued&buyer_id=${CHILD_ID}`,
    );
    expect(within(eyes!).getByRole('link', { name: r.invoicesOf('Eye Care') })).toHaveAttribute(
      'href',
      `/invoices?tab=issued&buyer_id=${OTHER_CHILD_ID}`,
    );
    expect(totals).toHaveTextContent(`${r.totalsRow}85.00 EUR20.00 EUR120.00 EUR225.00 EUR${r.overdueCount(1)}`);
  });

  it('is a card a child on a 390 px screen, every figure named', async () => {
    setViewportWidth(390);
    mockApi({ [RECEIVABLES]: () => json(200, receivablesOf()) });
    renderWithProviders(<ReceivablesCard organizationId={OWN_ORG_ID} />);
    const list = await screen.findByRole('list', { name: r.label });
    const [clinic] = within(list).getAllByRole('listitem');
    expect(clinic).toHaveTextContent(`${r.days61plus}120.00 EUR`);
    expect(clinic).toHaveTextContent(`${r.overdue}${r.overdueCount(1)}`);
  });

  it('says so when no child owes anything', async () => {
    mockApi({ [RECEIVABLES]: () => json(200, { ...receivablesOf(), children: [] }) });
    renderWithProviders(<ReceivablesCard organizationId={OWN_ORG_ID} />);
    expect(await screen.findByText(r.empty)).toBeInTheDocument();
  });

  it("is on a seller's dashboard for its people who read its books", async () => {
    const api = showDashboard({ role: 'agency_manager', orgType: 'agency' });
    expect(await screen.findByRole('heading', { level: 2, name: r.title })).toBeInTheDocument();
    expect(api.callsTo(RECEIVABLES)).toHaveLength(1);
  });

  it('is not on a tenant dashboard, which bills nobody', async () => {
    const api = showDashboard({ role: 'tenant_admin', orgType: 'tenant' });
    await screen.findByText(MESSAGES.dashboardPages.performanceMetrics);
    expect(screen.queryByRole('heading', { level: 2, name: r.title })).not.toBeInTheDocument();
    expect(api.callsTo(RECEIVABLES)).toHaveLength(0);
  });
});
