import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/helpers';
import { MESSAGES } from '../wording';
import { makeDashboard } from '../test-support';
import { CrossedAlertLinesCard } from './crossed-alert-lines-card';

const a = MESSAGES.alertLinePages;

describe('crossed alert lines card', () => {
  it("lists the organization's crossed lines with the bound each states and the value that crossed it", () => {
    const dashboard = makeDashboard('agency');
    const crossed = [
      {
        id: '00000000-0000-4000-9000-0000000000c1',
        kind: 'runway_days' as const,
        bound: '20.00',
        window: null,
        low_balance_threshold: false,
        crossed: true,
        value: '15.00',
        crossed_at: '2025-03-10T12:00:00.000Z',
        description: 'Alert when the credits last fewer than 20 days at the current rate',
      },
      {
        id: '00000000-0000-4000-9000-0000000000c2',
        kind: 'cap_percent' as const,
        bound: '80.00',
        window: 'month' as const,
        low_balance_threshold: false,
        crossed: true,
        value: '91.25',
        crossed_at: '2025-03-10T12:00:00.000Z',
        description: 'Alert at 80 % of the monthly spend cap used',
      },
    ];
    renderWithProviders(<CrossedAlertLinesCard data={{ ...dashboard, credits: { ...dashboard.credits, crossed_alert_lines: crossed } }} />);
    expect(screen.getByText(a.crossedDescription(2))).toBeInTheDocument();
    const rows = within(screen.getByRole('list', { name: a.crossedTitle })).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Alert when the credits last fewer than 20 days at the current rate');
    expect(rows[0]).toHaveTextContent('15 days');
    expect(rows[1]).toHaveTextContent('Alert at 80 % of the monthly spend cap used');
    expect(rows[1]).toHaveTextContent('91.25 %');
  });

  it('shows nothing when no line is crossed', () => {
    renderWithProviders(<CrossedAlertLinesCard data={makeDashboard('agency')} />);
    expect(screen.queryByText(a.crossedTitle)).toBeNull();
  });
});
