import { describe, expect, it } from 'vitest';
import { NAV_ITEMS } from './nav-items';

function activeItems(pathname: string): string[] {
  return NAV_ITEMS.filter((item) => item.isActive(pathname)).map((item) => item.to);
}

describe('navigation active rules', () => {
  it.each([
    ['/dashboard', ['/dashboard']],
    ['/dashboard/extra', []],
    ['/orgs', ['/orgs']],
    ['/orgs/123/billing', ['/orgs']],
    ['/team', ['/team']],
    ['/users/42', ['/team']],
    ['/users', []],
    ['/resources', ['/resources']],
    ['/resources/x', []],
    ['/credit-ledger', ['/credit-ledger']],
    ['/settings', ['/settings']],
    ['/settings/profile', []],
    ['/organizations', []],
  ])('%s activates %j', (pathname, expected) => {
    expect(activeItems(pathname)).toEqual(expected);
  });

  it('lists the six destinations in order: dashboard, organizations, team, resources, credit ledger, settings', () => {
    expect(NAV_ITEMS.map((item) => item.label)).toEqual([
      'Dashboard',
      'Organizations',
      'Team',
      'Resources',
      'Credit Ledger',
      'Settings',
    ]);
  });
});
