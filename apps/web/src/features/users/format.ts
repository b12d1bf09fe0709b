import { roleLevel, type Role, type UserStatus } from '@console/domain';
import { format } from 'date-fns';

/** Dates as the spec shows them: Jan 5, 2024 3:04 PM. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return 'N/A';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? 'N/A' : format(date, 'MMM d, yyyy h:mm a');
}

/** First and last name, or an empty string when neither is known. */
export function fullName(person: { first_name: string | null; last_name: string | null }): string {
  return [person.first_name, person.last_name].filter(Boolean).join(' ');
}

/** Badge variants of spec 2 section 4. */
export const STATUS_BADGE: Record<UserStatus, 'default' | 'secondary' | 'outline' | 'destructive'> = {
  active: 'default',
  inactive: 'secondary',
  pending: 'outline',
  suspended: 'destructive',
};

const RANK: Record<string, number> = { admin: 3, manager: 2, user: 1, support: 1 };

/** The server refuses to give a role above the caller's own level: such roles are not offered. */
export function rolesUpTo(roles: readonly Role[], callerRole: string | null | undefined): Role[] {
  const own = RANK[roleLevel(callerRole ?? '') ?? ''] ?? 0;
  return roles.filter((role) => (RANK[roleLevel(role) ?? ''] ?? 0) <= own);
}

/** Within the next 24 hours (the invitations list highlights these). */
export function expiresSoon(expiresAt: string, now = Date.now()): boolean {
  const left = new Date(expiresAt).getTime() - now;
  return left <= 24 * 60 * 60 * 1000;
}
