import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPIRING_SOON_DAYS } from '@/api/grants';
import { MESSAGES } from '../wording';
import { formatDate } from '@/lib/dates';
import { expiringOf, grantListOf, inDays, VOICE } from '@/test/grant-data';
import { json, makeSession, mockApi, OWN_ORG_ID, renderApp, renderWithProviders, setViewportWidth } from '@/test/helpers';
import { makeDashboard } from '../test-support';
import { ExpiringGrantsCard } from './expiring-grants-card';

const w = MESSAGES.grantPages.expiring;
const EXPIRING = 'GET /api/credit-grants/expiring';
const HOUR_MS = 3_600_000;

const soon = expiringOf({
  remaining: '42.50',
  agent_types: [VOICE],
  expires_at: new Date(Date.now() + 5 * HOUR_MS + 60_000).toISOString(),
});
const later = expiringOf({
  id: '00000000-0000-4000-9000-00000000a009',
  organization_name: 'Bright Smile',
  remaining: '10.00',
  expires_at: inDays(3.5),
});

beforeAll(() => Promise.all([import('../pages/dashboard-page'), import('@/app/shell/app-shell')]), 30_000);

describe('Expiring soon card', { timeout: 20_000 }, () => {
  it('lists whose grants expire, what is left, for which agents and in how long', async () => {
    setViewportWidth(1280);
    const api = mockApi({ [EXPIRING]: () => json(200, { grants: [soon, later] }) });
    renderWithProviders(<ExpiringGrantsCard />);
    const table = await screen.findByRole('table', { name: w.label });
    const [head, first, second] = within(table).getAllByRole('row');
    expect(head).toHaveTextContent(`${w.organization}${w.left}${w.agents}${w.expiresIn}`);
    expect(first).toHaveTextContent(`Acme Dental42.50${VOICE.name}${w.inHours(6)}`);
    expect(second).toHaveTextContent(`Bright Smile10.00${MESSAGES.grantPages.terms.everyAgent}${w.inDays(3)}`);
    expect(api.queriesOf(EXPIRING)).toEqual([{ days: String(EXPIRING_SOON_DAYS) }]);
  });

  it('is a list of cards at 390 px', async () => {
    setViewportWidth(390);
    mockApi({ [EXPIRING]: () => json(200, { grants: [soon] }) });
    renderWithProviders(<ExpiringGrantsCard />);
    const list = await screen.findByRole('list', { name: w.label });
    expect(within(list).getByRole('listitem')).toHaveTextContent(`${w.left}42.50`);
  });

  it('says so when nothing expires soon', async () => {
    mockApi({ [EXPIRING]: () => json(200, { grants: [] }) });
    renderWithProviders(<ExpiringGrantsCard />);
    expect(await screen.findByText(w.empty(EXPIRING_SOON_DAYS))).toBeInTheDocument();
  });

  it("is on the dashboard of whoever may view billing, a tenant user too, under the balance's parts", async () => {
    const session = makeSession({ role: 'tenant_user', orgType: 'tenant' });
    const api = mockApi((call) => {
      if (call.path === '/api/users/me') return json(200, session.user);
      if (call.path === '/api/dashboard') return json(200, makeDashboard('tenant'));
      if (`GET ${call.path}` === EXPIRING) return json(200, { grants: [later] });
      if (call.path === `/api/organizations/${OWN_ORG_ID}/credit-grants`)
        return json(200, grantListOf({ total: '250.00', open: '240.00', soonest_expiry: { at: later.expires_at!, amount: '10.00' } }));
      return undefined;
    });
    renderApp('/dashboard', { session });
    expect(await screen.findByRole('heading', { level: 2, name: w.title })).toBeInTheDocument();
    expect(await screen.findByText('Bright Smile')).toBeInTheDocument();
    expect(api.callsTo(EXPIRING)).toHaveLength(1);
    // The summary card's balance in parts.
    expect(await screen.findByText(MESSAGES.grantPages.parts.soonestExpiry('10.00', formatDate(later.expires_at)))).toBeInTheDocument();
    expect(screen.getByTestId('balance-parts')).toHaveTextContent(`${MESSAGES.grantPages.parts.open}: 240.00 credits`);
  });
});
