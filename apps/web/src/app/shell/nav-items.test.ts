import { describe, expect, it } from 'vitest';
import type { Actor } from '@console/domain';
import { NAV_ITEMS, navItemsFor } from './nav-items';

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
    ['/agent-catalog', ['/agent-catalog']],
    ['/activity', ['/activity']],
  ])('%s activates %j', (pathname, expected) => {
    expect(activeItems(pathname)).toEqual(expected);
  });

  it('lists the six destinations in order: dashboard, organizations, team, resources, credit ledger, settings', () => {
    expect(navItemsFor(actor('tenant_manager', 'tenant')).map((item) => item.label)).toEqual([
      'Dashboard',
      'Organizations',
      'Team',
      'Resources',
      'Credit Ledger',
      'Settings',
    ]);
  });

  it('adds Activity, after the Credit Ledger, for admins only', () => {
    const labels = (viewer: Actor | null) => navItemsFor(viewer).map((item) => item.label);
    expect(labels(actor('tenant_admin', 'tenant'))).toEqual(['Dashboard', 'Organizations', 'Team', 'Resources', 'Credit Ledger', 'Activity', 'Settings']);
    for (const [role, type] of [['house_manager', 'house'], ['agency_support', 'agency'], ['tenant_user', 'tenant']] as const) {
      expect(labels(actor(role, type))).not.toContain('Activity');
    }
    expect(labels(null)).not.toContain('Activity');
  });

  it('shows Organizations and Team only to those who may list them: the user level sees neither', () => {
    const labels = (viewer: Actor | null) => navItemsFor(viewer).map((item) => item.label);
    for (const [role, type] of [['tenant_user', 'tenant'], ['house_user', 'house'], ['agency_user', 'agency']] as const) {
      expect(labels(actor(role, type))).toEqual(['Dashboard', 'Resources', 'Credit Ledger', 'Settings']);
    }
    expect(labels(actor('agency_support', 'agency'))).toEqual(['Dashboard', 'Organizations', 'Team', 'Resources', 'Credit Ledger', 'Settings']);
  });

  it('adds the Agent Catalog, before Settings, for house admins only', () => {
    const labels = (viewer: Actor | null) => navItemsFor(viewer).map((item) => item.label);
    expect(labels(actor('house_admin', 'house'))).toEqual(['Dashboard', 'Organizations', 'Team', 'Resources', 'Credit Ledger', 'Activity', 'Agent Catalog', 'Settings']);
    for (const [role, type] of [['house_manager', 'house'], ['house_support', 'house'], ['super_agency_admin', 'super_agency'], ['tenant_admin', 'tenant']] as const) {
      expect(labels(actor(role, type))).not.toContain('Agent Catalog');
    }
    expect(labels(null)).not.toContain('Agent Catalog');
  });
});

function actor(role: string, type: Actor['organization']['org_type']): Actor {
  return { userId: 'u', role, organization: { id: 'o', org_type: type } };
}
