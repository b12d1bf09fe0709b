import type { Invitation, UserProfile } from '@console/domain';
import { json, makeSession, OWN_ORG_ID } from './helpers';

export const OWN_ORG = OWN_ORG_ID;
export const CHILD_ORG = '00000000-0000-4000-8000-000000000002';
/** The user of the sessions `makeSession` builds. */
export const SELF_ID = '00000000-0000-4000-8000-0000000000aa';

let counter = 0;
const nextId = () => `00000000-0000-4000-9000-${String(++counter).padStart(12, '0')}`;

export function makeUser(overrides: Partial<UserProfile> = {}): UserProfile {
  const base = makeSession().user;
  return {
    ...base,
    id: nextId(),
    email: `user${counter}@example.test`,
    first_name: 'Bob',
    last_name: `Person${counter}`,
    role: 'tenant_user',
    ...overrides,
  };
}

export function makeInvitation(overrides: Partial<Invitation> = {}): Invitation {
  const id = nextId();
  return {
    id,
    email: `invitee${counter}@example.test`,
    first_name: 'Ivy',
    last_name: `Invitee${counter}`,
    role: 'tenant_user',
    organization_id: OWN_ORG,
    organization_name: 'Acme Corporation',
    status: 'pending',
    invited_by: SELF_ID,
    invited_by_name: 'Sam Self',
    created_at: '2025-01-01T00:00:00Z',
    expires_at: new Date(Date.now() + 5 * 24 * 3600 * 1000).toISOString(),
    accepted_at: null,
    ...overrides,
  };
}

/** A page of users or invitations as the list endpoints answer it. */
export function page<T>(key: 'users' | 'invitations', items: T[], { page = 1, pageSize = 10, total = items.length } = {}) {
  return json(200, {
    [key]: items,
    pagination: { page, page_size: pageSize, total, total_pages: Math.ceil(total / pageSize) },
  });
}
