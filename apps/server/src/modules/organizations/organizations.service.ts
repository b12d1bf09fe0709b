import type { Kysely } from 'kysely';
import type { DB, Executor } from '../../db/schema.ts';
import { createOrganizationCreate } from './create.ts';
import { createOrganizationList } from './list.ts';
import { activeAgentCount, createOrganizationReads } from './queries.ts';
import { createOrganizationRead } from './read.ts';
import { createOrganizationRemove } from './remove.ts';
import { createOrganizationUpdate } from './update.ts';
import { createVerifyChildren } from './verify-children.ts';

/** The organizations service: the tree, scope (`visible`), lists, create, update, soft delete, verify-children. */
export function createOrganizationsService({ db, readDb = db }: { db: Kysely<DB>; readDb?: Kysely<DB> }) {
  const reads = createOrganizationReads(db);
  const deps = { db, reads };
  // The lists read `readDb` (the replica when there is one); scope (`visible`) and every change read the primary.
  const { list } = createOrganizationList({ db: readDb, reads });
  const { tree, get } = createOrganizationRead(deps);
  const { create } = createOrganizationCreate(deps);
  const { update } = createOrganizationUpdate(deps);
  const { remove } = createOrganizationRemove(deps);
  const { verifyChildren } = createVerifyChildren(deps);

  return {
    visible: reads.visible,

    /** The organization's live agent activations, in `executor`'s transaction when one is given. */
    activeAgentCount: (organizationId: string, executor: Executor = db) => activeAgentCount(executor, organizationId),

    getDescendantOrgIdsOrSelf: reads.getDescendantOrgIdsOrSelf,
    list,
    tree,
    get,
    create,
    update,
    remove,
    verifyChildren,
  };
}

export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
