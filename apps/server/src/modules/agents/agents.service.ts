import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { PricingService } from '../pricing/pricing.service.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { createActivations } from './activations.ts';
import { createCatalog } from './catalog.ts';
import { createUsageSummary } from './usage-summary.ts';

export { AGENT_TYPES_MAX } from './queries.ts';
export type { AgentTypeChanges, AgentTypeInput } from './catalog.ts';

/** The agents service: the agent catalog and its prices, activations under the limit, usage summaries. */
export function createAgentsService({
  db,
  organizations,
  pricing,
}: {
  db: Kysely<DB>;
  organizations: OrganizationsService;
  /** The catalog tells the sellers whose book a new catalog price overtakes. */
  pricing: Pick<PricingService, 'tellFlooredSellers'>;
}) {
  const { listTypes, createType, updateType, retireType } = createCatalog({ db, pricing });
  const { listActivations, activate, deactivate, setCap } = createActivations({ db, organizations });
  const { usage } = createUsageSummary({ db, organizations });
  return { listTypes, createType, updateType, retireType, listActivations, activate, deactivate, setCap, usage };
}

export type AgentsService = ReturnType<typeof createAgentsService>;
