import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '@/lib/session-store';
import { capacityOf, OWN_ORG_ID } from '@/test/billing-data';
import { json, makeSession, mockApi, renderWithProviders } from '@/test/helpers';
import { CapacityPanel } from './capacity-panel';
import { MESSAGES } from '@/lib/wording';

const m = MESSAGES.billingPages;

function renderPanel(childLimits: number[], limit = 100) {
  mockApi({ [`GET /api/organizations/${OWN_ORG_ID}/capacity`]: () => json(200, capacityOf({ limit, childLimits })) });
  sessionStore.set(makeSession({ role: 'agency_admin', orgType: 'agency' }));
  renderWithProviders(<CapacityPanel organizationId={OWN_ORG_ID} childHref={(id) => `/orgs/${id}/resources`} />);
}

describe('capacity panel', () => {
  it('marks the capacity used destructive above 80 percent', async () => {
    renderPanel([50, 31]);
    const badge = await screen.findByTestId('capacity-used-badge');
    expect(badge).toHaveTextContent('81%');
    expect(badge).toHaveClass('bg-destructive');
    expect(screen.getByTestId('capacity-left')).toHaveTextContent('19');
  });

  it('keeps it secondary at 80 percent', async () => {
    renderPanel([80]);
    const badge = await screen.findByTestId('capacity-used-badge');
    expect(badge).toHaveTextContent('80%');
    expect(badge).toHaveClass('bg-secondary');
  });

  it('shows each child as a share of the limit', async () => {
    renderPanel([25, 5], 50);
    expect(await screen.findByText(`25 · ${m.capacityShare(50)}`)).toBeInTheDocument();
    expect(screen.getByText(`5 · ${m.capacityShare(10)}`)).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: `Child 1: ${m.capacityShare(50)}` })).toBeInTheDocument();
  });

  it('says so when there are no child organizations', async () => {
    renderPanel([]);
    expect(await screen.findByText(m.noChildren)).toBeInTheDocument();
    expect(screen.getByTestId('capacity-used-badge')).toHaveTextContent('0%');
  });
});
