import { can, isInSubtree, type Actor, type Permission } from '@console/domain';
import { ForbiddenError, NotFoundError } from './errors.ts';

/** 403 unless the caller's role holds the permission. */
export function requirePermission(actor: Actor, permission: Permission): void {
  if (!can(actor.role, permission)) throw new ForbiddenError();
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
