import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { createEntitlement } from './entitlement.ts';
import { createHeartbeat } from './heartbeat.ts';
import { createRecord } from './record.ts';

export type { UsageActor, UsageEvent } from './record.ts';

/** The usage service: usage events (through `usage_record`), heartbeats, entitlements. */
export function createUsageService({ db }: { db: Kysely<DB> }) {
  const { record } = createRecord({ db });
  const { heartbeat } = createHeartbeat({ db });
  const { entitlement } = createEntitlement({ db });
  return { record, heartbeat, entitlement };
}

export type UsageService = ReturnType<typeof createUsageService>;
