import { describe, expect, it } from 'vitest';
import type { Actor } from '@console/domain';
import { navItemsFor } from './nav-items';

const OWN = '00000000-0000-4000-8000-00000000000a';

/** The destinations of the items current at a path, for a house admin of OWN (shown every item). */
function activeItems(pathname: string): string[] {
  const viewer = actor('house_admin', 'house');
  return navItemsFor(viewer)
    .filter((item) => item.isActive(pathname, viewer))
    .map((item) => item.to);
}

describe('navigation active rules', () => {
  it.each([
    ['/dashboard', ['/dashboard']],
    ['/dashboard/extra', []],
    ['/orgs', ['/orgs']],
    ['/orgs/123/billing', ['/orgs']],
    [`/orgs/${OWN}`, [`/organizations/${OWN}`]],
    [`/orgs/${OWN}/billing`, [`/organizations/${OWN}`]],
    [`/orgs/${OWN}0`, ['/orgs']],
    ['/orgsx', []],
    ['/team', ['/team']],
    ['/users/42', ['/team']],
    ['/users', []],
    ['/resources', ['/resources']],
    ['/resources/x', []],
    ['/credit-ledger', ['/credit-ledger']],
    ['/settings', ['/settings']],
    ['/settings/profile', []],
    ['/settings/webhooks', ['/settings/webhooks']],
    ['/settings/webhooks/00000000-0000-4000-8000-0000000000e1', ['/settings/webhooks']],
    ['/settings/webhooksx', []],
    // Settings > Identity and Settings > Billing details have no item of their own.
    ['/settings/identity', ['/settings']],
    ['/settings/billing-details', ['/settings']],
    ['/invoices', ['/invoices']],
    ['/invoices/00000000-0000-4000-8000-0000000001a1', ['/invoices']],
    ['/invoicesx', []],
    ['/settings/identity/x', []],
    ['/organizations', ['/orgs']],
    ['/organizations/123/edit', ['/orgs']],
    [`/organizations/${OWN}`, [`/organizations/${OWN}`]],
    ['/agent-catalog', ['/agent-catalog']],
    ['/activity', ['/activity']],
    ['/pricing', ['/pricing']],
  ])('%s activates %j', (pathname, expected) => {
    expect(activeItems(pathname)).toEqual(expected);
  });

  it('lists the nine destinations in order: dashboard, my organization, organizations, team, resources, credit ledger, invoices, pricing, settings', () => {
    expect(navItemsFor(actor('agency_manager', 'agency')).map((item) => item.label)).toEqual([
      'Dashboard',
      'My Organization',
      'Organizations',
      'Team',
      'Resources',
      'Credit Ledger',
      'Invoices',
      'Pricing',
      'Settings',
    ]);
  });

  it('adds Activity, after the Credit Ledger, for admins only', () => {
    const labels = (viewer: Actor | null) => navItemsFor(viewer).map((item) => item.label);
    expect(labels(actor('agency_admin', 'agency'))).toEqual([
      'Dashboard',
      'My Organization',
      'Organizations',
      'Team',
      'Resources',
      'Credit Ledger',
      'Invoices',
      'Pricing',
      'Activity',
      'Webhooks',
      'Settings',
    ]);
    for (const [role, type] of [
      ['house_manager', 'house'],
      ['agency_support', 'agency'],
      ['tenant_user', 'tenant'],
    ] as const) {
      expect(labels(actor(role, type))).not.toContain('Activity');
    }
    expect(labels(null)).not.toContain('Activity');
  });

  it('shows Organizations and Team only to those who may list them: the user level sees neither', () => {
    const labels = (viewer: Actor | null) => navItemsFor(viewer).map((item) => item.label);
    expect(labels(actor('tenant_user', 'tenant'))).toEqual([
      'Dashboard',
      'My Organization',
      'Resources',
      'Credit Ledger',
      'Invoices',
      'Settings',
    ]);
    for (const [role, type] of [
      ['house_user', 'house'],
      ['agency_user', 'agency'],
    ] as const) {
      expect(labels(actor(role, type))).toEqual([
        'Dashboard',
        'My Organization',
        'Resources',
        'Credit Ledger',
        'Invoices',
        'Pricing',
        'Settings',
      ]);
    }
    expect(labels(actor('agency_support', 'agency'))).toEqual([
      'Dashboard',
      'My Organization',
      'Organizations',
      'Team',
      'Resources',
      'Credit Ledger',
      'Invoices',
      'Pricing',
      'Settings',
    ]);
  });

  it('shows no Organizations to a tenant, which never has organizations below it', () => {
    const labels = (viewer: Actor | null) => navItemsFor(viewer).map((item) => item.label);
    for (const role of ['tenant_admin', 'tenant_manager', 'tenant_support']) {
      expect(labels(actor(role, 'tenant'))).not.toContain('Organizations');
      expect(labels(actor(role, 'tenant'))).toContain('Team');
    }
  });

  it('adds the Agent Catalog, before Settings, for house admins only', () => {
    const labels = (viewer: Actor | null) => navItemsFor(viewer).map((item) => item.label);
    expect(labels(actor('house_admin', 'house'))).toEqual([
      'Dashboard',
      'My Organization',
      'Organizations',
      'Team',
      'Resources',
      'Credit Ledger',
      'Invoices',
      'Pricing',
      'Activity',
      'Agent Catalog',
      'Webhooks',
      'Settings',
    ]);
    for (const [role, type] of [
      ['house_manager', 'house'],
      ['house_support', 'house'],
      ['super_agency_admin', 'super_agency'],
      ['tenant_admin', 'tenant'],
    ] as const) {
      expect(labels(actor(role, type))).not.toContain('Agent Catalog');
    }
    expect(labels(null)).not.toContain('Agent Catalog');
  });

  it('shows Pricing to the people of a house, super agency or agency (mayViewPrices), never to a tenant', () => {
    const labels = (viewer: Actor | null) => navItemsFor(viewer).map((item) => item.label);
    for (const [role, type] of [
      ['house_admin', 'house'],
      ['super_agency_admin', 'super_agency'],
      ['agency_admin', 'agency'],
      ['agency_user', 'agency'],
    ] as const) {
      expect(labels(actor(role, type))).toContain('Pricing');
    }
    for (const role of ['tenant_admin', 'tenant_manager', 'tenant_user']) {
      expect(labels(actor(role, 'tenant'))).not.toContain('Pricing');
    }
    expect(labels(null)).not.toContain('Pricing');
  });
});

describe('Webhooks', () => {
  it('is shown, before Settings, to the admins of every level (webhooks.manage) and to no one else', () => {
    const labels = (viewer: Actor | null) => navItemsFor(viewer).map((item) => item.label);
    for (const [role, type] of [
      ['house_admin', 'house'],
      ['super_agency_admin', 'super_agency'],
      ['agency_admin', 'agency'],
      ['tenant_admin', 'tenant'],
    ] as const) {
      expect(labels(actor(role, type)).slice(-2)).toEqual(['Webhooks', 'Settings']);
    }
    for (const [role, type] of [
      ['house_manager', 'house'],
      ['agency_support', 'agency'],
      ['agency_user', 'agency'],
      ['tenant_manager', 'tenant'],
      ['tenant_user', 'tenant'],
    ] as const) {
      expect(labels(actor(role, type))).not.toContain('Webhooks');
    }
    expect(labels(null)).not.toContain('Webhooks');
  });
});

describe('My Organization', () => {
  it("leads to the viewer's own organization: under /organizations for the house roles, /orgs for the others", () => {
    const to = (viewer: Actor) => navItemsFor(viewer).find((item) => item.label === 'My Organization')?.to;
    expect(to(actor('house_user', 'house'))).toBe(`/organizations/${OWN}`);
    expect(to(actor('tenant_user', 'tenant'))).toBe(`/orgs/${OWN}`);
    expect(navItemsFor(null).map((item) => item.label)).not.toContain('My Organization');
  });
});

function actor(role: string, type: Actor['organization']['org_type']): Actor {
  return { userId: 'u', role, organization: { id: OWN, org_type: type } };
}
