import type { LedgerExportQuery, ListOrganizationsQuery } from '@console/domain';

/**
 * The query keys of the organization, billing and credit data, in one place: a change to one
 * refreshes the others (an allocation moves balances, billing and the tree), so each API file
 * names the others' keys without importing the others.
 */

/** Every organizations query key, so invalidations name what they refresh. */
export const organizationKeys = {
  all: ['organizations'] as const,
  list: (query: ListOrganizationsQuery) => ['organizations', 'list', query] as const,
  detail: (id: string) => ['organizations', 'detail', id] as const,
  /** `undefined` is the caller's own organization. */
  tree: (id: string | undefined) => ['organizations', 'tree', id ?? 'own'] as const,
};

/** Every billing query key, so invalidations name what they refresh. */
export const billingKeys = {
  all: ['billing'] as const,
  settings: (organizationId: string) => ['billing', 'settings', organizationId] as const,
  capacities: ['billing', 'capacity'] as const,
  capacity: (organizationId: string) => ['billing', 'capacity', organizationId] as const,
  spendControls: (organizationId: string) => ['billing', 'spend-controls', organizationId] as const,
  alertLines: (organizationId: string) => ['billing', 'alert-lines', organizationId] as const,
};

/** Every credits query key, so invalidations name what they refresh: everything under `credits` after a movement. */
export const creditKeys = {
  all: ['credits'] as const,
  ledger: (filters: LedgerExportQuery) => ['credits', 'ledger', filters] as const,
  recent: (organizationId: string) => ['credits', 'recent', organizationId] as const,
  /** An organization's balance in parts and its grants (under `credits`: every movement refreshes them). */
  grants: (organizationId: string, all: boolean) => ['credits', 'grants', organizationId, all ? 'all' : 'held'] as const,
  /** The grants below the caller that expire within `days`. */
  expiringGrants: (days: number) => ['credits', 'expiring-grants', days] as const,
};
