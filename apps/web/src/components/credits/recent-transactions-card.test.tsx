import { configure, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessionStore } from '@/lib/session-store';
import { TYPE_IDS } from '@/test/agent-data';
import { entry, ledgerPage } from '@/test/credit-data';
import { json, makeSession, mockApi, OWN_ORG_ID, renderWithProviders } from '@/test/helpers';
import { RecentTransactionsCard } from './recent-transactions-card';
import { MESSAGES } from '@/lib/wording';

const p = MESSAGES.creditPages;

describe('recent transactions card', { timeout: 60_000 }, () => {
  beforeAll(() => {
    // A shared, busy machine: give the first render more time.
    configure({ asyncUtilTimeout: 15_000 });
  });

  it('fetches 5 entries of the organization and shows the newest 3 with a link to the ledger', async () => {
    sessionStore.set(makeSession());
    const entries = [
      entry({
        entry_type: 'allocation_received',
        amount: '500.00',
        metadata: { from_org_name: 'Agency One' },
        counterparty: { id: OWN_ORG_ID, name: 'Agency One', in_scope: true },
      }),
      entry({ entry_type: 'consumption', amount: '-2.00', metadata: { usage: { tokens: 10 } } }),
      entry({ entry_type: 'refund', amount: '1.00' }),
      entry({ entry_type: 'consumption', amount: '-4.00' }),
      entry({ entry_type: 'consumption', amount: '-5.00' }),
    ];
    const api = mockApi({ 'GET /api/credits/ledger': () => json(200, ledgerPage(entries)) });
    renderWithProviders(<RecentTransactionsCard organizationId={OWN_ORG_ID} />, '/settings');

    const list = await screen.findByRole('list', { name: p.recentTitle });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Received 500.00 credits from Agency One');
    expect(items[0]).toHaveTextContent('500.00 credits');
    expect(items[1]).toHaveTextContent('Usage, charged 2.00 credits (tokens 10)');
    expect(items[2]).toHaveTextContent('Someone refunded 1.00 credits');
    expect(screen.queryByText('-4.00 credits')).not.toBeInTheDocument();
    expect(api.queriesOf('GET /api/credits/ledger')).toEqual([{ organization_id: OWN_ORG_ID, limit: '5' }]);
    expect(screen.getByRole('link', { name: p.viewFullLedger })).toHaveAttribute('href', '/credit-ledger');
  });

  it('shows the empty state', async () => {
    sessionStore.set(makeSession());
    mockApi({ 'GET /api/credits/ledger': () => json(200, ledgerPage([])) });
    renderWithProviders(<RecentTransactionsCard organizationId={OWN_ORG_ID} />, '/settings');
    expect(await screen.findByText(MESSAGES.credits.emptyTitle)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: p.viewFullLedger })).toBeInTheDocument();
  });

  it("shows the server's sentence, which names the agent of metered consumption from the catalog", async () => {
    sessionStore.set(makeSession());
    const metered = entry({
      entry_type: 'consumption',
      amount: '-1.00',
      agent_type_id: TYPE_IDS.bot,
      units: '4.0000',
      metadata: { agent: 'support-bot' },
      description: 'Support Bot used 4 × run, charged 1.00 credits',
    });
    const api = mockApi({ 'GET /api/credits/ledger': () => json(200, ledgerPage([metered])) });
    renderWithProviders(<RecentTransactionsCard organizationId={OWN_ORG_ID} />, '/settings');
    expect(await screen.findByText('Support Bot used 4 × run, charged 1.00 credits')).toBeInTheDocument();
    // One source for the words: the card asks for no catalog of its own.
    expect(api.queriesOf('GET /api/agent-types')).toEqual([]);
  });
});
