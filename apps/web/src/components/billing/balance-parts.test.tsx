import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '@/lib/session-store';
import { MESSAGES } from '@/lib/wording';
import { OWN_ORG_ID } from '@/test/billing-data';
import { grantListOf, grantOf, inDays, VOICE } from '@/test/grant-data';
import { json, makeSession, mockApi, renderWithProviders } from '@/test/helpers';
import { formatDate } from '@/lib/dates';
import { CreditBalanceCard } from './credit-balance-card';

const w = MESSAGES.grantPages.parts;
const GRANTS = `GET /api/organizations/${OWN_ORG_ID}/credit-grants`;

function showCard(answer: ReturnType<typeof grantListOf>) {
  sessionStore.set(makeSession({ role: 'tenant_user', orgType: 'tenant' }));
  const api = mockApi({ [GRANTS]: () => json(200, answer) });
  renderWithProviders(<CreditBalanceCard organizationId={OWN_ORG_ID} balance="250.00" threshold="100.00" />);
  return api;
}

describe('the credit balance card in parts', () => {
  it('shows the open credits and the soonest expiry under the total when some credits carry terms', async () => {
    const at = inDays(3);
    const api = showCard(
      grantListOf({ open: '150.00', soonest_expiry: { at, amount: '100.00' } }, [
        grantOf({ expires_at: at, agent_types: [VOICE], priority: 50 }),
      ]),
    );
    const parts = await screen.findByTestId('balance-parts');
    expect(screen.getByTestId('credit-balance')).toHaveTextContent('250.00 credits');
    expect(parts).toHaveTextContent(`${w.open}: 150.00 credits`);
    expect(parts).toHaveTextContent(w.soonestExpiry('100.00', formatDate(at)));
    expect(api.queriesOf(GRANTS)[0]).toEqual({ all: 'false' });
  });

  it('says nothing more when every credit is open', async () => {
    const api = showCard(grantListOf());
    await waitFor(() => expect(api.callsTo(GRANTS)).toHaveLength(1));
    await screen.findByTestId('credit-balance');
    expect(screen.queryByTestId('balance-parts')).not.toBeInTheDocument();
    expect(screen.queryByText(w.open, { exact: false })).not.toBeInTheDocument();
  });

  it('shows an expiry even when the open credits are the whole balance (a grant used up but for its expiry)', async () => {
    const at = inDays(1);
    showCard(grantListOf({ soonest_expiry: { at, amount: '0.50' } }));
    expect(await screen.findByText(w.soonestExpiry('0.50', formatDate(at)))).toBeInTheDocument();
    expect(screen.queryByText(`${w.open}:`)).not.toBeInTheDocument();
  });
});
