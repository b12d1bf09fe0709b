import { createExpiringGrants } from './expiring.ts';
import { createGrantList } from './list.ts';
import type { GrantsDeps } from './queries.ts';

/** The grants service: an organization's balance in its parts with its grants, and the grants expiring soon below the caller. */
export function createGrantsService(deps: GrantsDeps) {
  const { list } = createGrantList(deps);
  const { expiring } = createExpiringGrants(deps);
  return { list, expiring };
}

export type GrantsService = ReturnType<typeof createGrantsService>;
