import { MESSAGES, can, frozenStanding, isInSubtree, type Actor, type Permission } from '@console/domain';
import { AppError, ForbiddenError, NotFoundError } from './errors.ts';

/** 403 unless the caller's role holds the permission. */
export function requirePermission(actor: Actor, permission: Permission): void {
  if (!can(actor.role, permission)) throw new ForbiddenError();
}

/**
 * 403 (`organization_suspended` or `organization_inactive`) for a person whose organization,
 * or one above it, is suspended or inactive: they may read, but change nothing.
 */
export function requireWritable(actor: Actor): void {
  const frozen = frozenStanding(actor);
  if (frozen) throw new AppError(403, `organization_${frozen.status}`, MESSAGES.organizations.frozen(frozen.status, frozen.where));
}

/**
 * The row when it lies in the caller's subtree (the own organization or a descendant);
 * 404 otherwise, with the same message whether it is absent or out of scope, so the
 * answer never tells the two apart.
 */
export function requireInSubtree<Row extends { path: string }>(actor: Actor, row: Row | null | undefined, message: string): Row {
  if (!row || !isInSubtree(actor, row)) throw new NotFoundError(message);
  return row;
}
