import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { createEntitlement } from './entitlement.ts';
import { createUsageEvents } from './events.ts';
import { createHeartbeat } from './heartbeat.ts';
import { createRecord } from './record.ts';

export type { UsageActor, UsageEvent } from './record.ts';

/**
 * The usage service: usage events (recorded through `usage_record`, and read back), heartbeats, entitlements.
 * The stored events are read back from `readDb` (the replica when there is one); recording and entitlements,
 * which decide money, read the primary.
 */
export function createUsageService({
  db,
  readDb = db,
  organizations,
  onStatement,
}: {
  db: Kysely<DB>;
  readDb?: Kysely<DB>;
  organizations: OrganizationsService;
  /** Told the number of batches each recording statement carried (the metrics). */
  onStatement?: (batches: number) => void;
}) {
  const { record } = createRecord({ db, onStatement });
  const { heartbeat } = createHeartbeat({ db });
  const { entitlement } = createEntitlement({ db });
  const events = createUsageEvents({ db: readDb, organizations });
  return { record, heartbeat, entitlement, events };
}

export type UsageService = ReturnType<typeof createUsageService>;
