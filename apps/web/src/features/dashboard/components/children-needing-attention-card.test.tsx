import { ORG_ATTENTION_LABELS, type DashboardLowChild } from '@console/domain';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '@/lib/session-store';
import { makeSession, renderWithProviders } from '@/test/helpers';
import { MESSAGES } from '../wording';
import { makeDashboard } from '../test-support';
import { ChildrenNeedingAttentionCard } from './children-needing-attention-card';

const m = MESSAGES.dashboardPages;

const child = (n: number, name: string, overrides: Partial<DashboardLowChild>): DashboardLowChild => ({
  id: `00000000-0000-4000-8000-0000000000d${n}`,
  name,
  org_type: 'tenant',
  status: 'active',
  credit_balance: '500.00',
  activated_agent_limit: 5,
  low_balance_threshold: '100.00',
  low_balance: false,
  cap_standing: { reached: false, refused_this_month: 0 },
  has_active_admin: true,
  ...overrides,
});

function show(children: DashboardLowChild[]) {
  sessionStore.set(makeSession({ role: 'agency_admin', orgType: 'agency', orgName: 'Acme Corporation' }));
  const dashboard = makeDashboard('agency');
  renderWithProviders(
    <ChildrenNeedingAttentionCard
      data={{ ...dashboard, credits: { ...dashboard.credits, children_needing_attention: { count: children.length, children } } }}
    />,
  );
  return screen.getByRole('list', { name: m.childrenNeedingAttention });
}

describe('children needing attention card (issue 46)', () => {
  it('lists a child stopped by its spend cap with the reason and the events refused this month, and links the capped list', () => {
    const list = show([
      child(1, 'Dry Tenant', { credit_balance: '20.00', low_balance: true }),
      child(2, 'Harbor Realty', { cap_standing: { reached: true, refused_this_month: 322 } }),
    ]);
    expect(screen.getByText(m.childrenNeedingAttentionDescription(2))).toBeInTheDocument();
    const [dry, harbor] = within(list).getAllByRole('listitem');
    expect(dry).toHaveTextContent('Low balance20.00 creditsalert below 100.00');
    expect(within(dry!).queryByText(ORG_ATTENTION_LABELS.cap_reached)).toBeNull();
    expect(within(harbor!).getByText(ORG_ATTENTION_LABELS.cap_reached)).toBeInTheDocument();
    expect(harbor).toHaveTextContent('New usage is refused (322 events this month)');
    expect(within(harbor!).queryByText('Low balance')).toBeNull();
    expect(screen.getByRole('link', { name: m.allCappedChildren })).toHaveAttribute('href', '/orgs?attention=cap_reached');
    expect(screen.getByRole('link', { name: m.allLowChildren })).toHaveAttribute('href', '/orgs?attention=low_balance');
  });

  it('shows both reasons of a child low and capped', () => {
    const list = show([
      child(1, 'Both Tenant', { credit_balance: '0.00', low_balance: true, cap_standing: { reached: true, refused_this_month: 1 } }),
    ]);
    const [both] = within(list).getAllByRole('listitem');
    expect(both).toHaveTextContent('Low balance0.00 credits');
    expect(both).toHaveTextContent('New usage is refused (1 event this month)');
  });

  it('links only the low-balance list when no child is stopped by a cap', () => {
    show([child(1, 'Dry Tenant', { credit_balance: '20.00', low_balance: true })]);
    expect(screen.queryByRole('link', { name: m.allCappedChildren })).toBeNull();
    expect(screen.getByRole('link', { name: m.allLowChildren })).toBeInTheDocument();
  });
});
