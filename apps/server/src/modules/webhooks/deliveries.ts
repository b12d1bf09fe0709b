import type { Kysely } from 'kysely';
import { MESSAGES, type WebhookDeliveryState } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { BadRequestError, NotFoundError } from '../../lib/errors.ts';
import type { WebhookAccess } from './access.ts';
import { deliveriesQuery, toDelivery } from './queries.ts';

const w = MESSAGES.webhooks;
const PAGE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function createDeliveries({ db, access }: { db: Kysely<DB>; access: WebhookAccess }) {
  const { ownOrganization } = access;

  /** An endpoint's delivery log, newest first, a page at a time (the cursor is the last delivery shown), of one state or all. */
  async function deliveries(
    caller: Caller,
    organizationId: string,
    endpointId: string,
    query: { state?: WebhookDeliveryState; cursor?: string },
  ) {
    const org = await ownOrganization(caller, organizationId, db, false);
    const endpoint = await db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('id', '=', endpointId)
      .where('organization_id', '=', org.id)
      .executeTakeFirst();
    if (!endpoint) throw new NotFoundError(w.notFound);
    if (query.cursor !== undefined && !UUID.test(query.cursor))
      throw new BadRequestError(MESSAGES.apiKeys.invalidCursor, { cursor: MESSAGES.apiKeys.invalidCursor });
    const { rows } = await deliveriesQuery(endpoint.id, { state: query.state, after: query.cursor, limit: PAGE + 1 }).execute(db);
    const page = rows.slice(0, PAGE);
    return { deliveries: page.map(toDelivery), next_cursor: rows.length > PAGE ? page[page.length - 1]!.id : null };
  }

  return { deliveries };
}
