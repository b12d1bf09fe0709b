import type { ExpiringGrant, GrantList, GrantRow } from '@console/domain';
import { OWN_ORG_ID } from './helpers';

export const PARENT_ID = '00000000-0000-4000-8000-0000000000ff';
export const GRANT_ID = '00000000-0000-4000-9000-00000000a001';
const DAY_MS = 86_400_000;

/** An instant `days` from now (negative: in the past). */
export const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

export const VOICE = { code: 'voice-receptionist', name: 'Voice Receptionist' };
export const CHAT = { code: 'chat-assistant', name: 'Chat Assistant' };

/** A grant of the own organization as GET /api/organizations/:id/credit-grants lists it. */
export function grantOf(overrides: Partial<GrantRow> = {}): GrantRow {
  return {
    id: GRANT_ID,
    organization_id: OWN_ORG_ID,
    granted_by: { id: PARENT_ID, name: 'Northwind Agency' },
    amount: '100.00',
    remaining: '100.00',
    priority: 0,
    expires_at: null,
    agent_types: null,
    created_at: inDays(-1),
    expired_at: null,
    transaction_id: null,
    ...overrides,
  };
}

/** The answer of GET /api/organizations/:id/credit-grants. */
export function grantListOf(overrides: Partial<GrantList['parts']> = {}, grants: GrantRow[] = []): GrantList {
  return {
    parts: { total: '250.00', open: '250.00', spendable: [], soonest_expiry: null, ...overrides },
    grants,
  };
}

/** A grant of an organization below, as GET /api/credit-grants/expiring lists it. */
export function expiringOf(overrides: Partial<ExpiringGrant> = {}): ExpiringGrant {
  return { ...grantOf({ expires_at: inDays(3) }), organization_name: 'Acme Dental', ...overrides };
}
