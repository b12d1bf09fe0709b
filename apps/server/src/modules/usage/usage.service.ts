import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { createEntitlement } from './entitlement.ts';
import { createUsageEvents } from './events.ts';
import { createHeartbeat } from './heartbeat.ts';
import { createRecord } from './record.ts';

export type { UsageActor, UsageEvent } from './record.ts';

/** The usage service: usage events (recorded through `usage_record`, and read back), heartbeats, entitlements. */
export function createUsageService({ db, organizations }: { db: Kysely<DB>; organizations: OrganizationsService }) {
  const { record } = createRecord({ db });
  const { heartbeat } = createHeartbeat({ db });
  const { entitlement } = createEntitlement({ db });
  const events = createUsageEvents({ db, organizations });
  return { record, heartbeat, entitlement, events };
}

export type UsageService = ReturnType<typeof createUsageService>;
