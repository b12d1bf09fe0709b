import { MESSAGES, waitOf, mayManageWebhooksOf, mayViewWebhooksOf } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, NotFoundError } from '../../lib/errors.ts';
import { countOrRefuse } from '../../lib/rate-limit.ts';
import type { RateLimitSettings } from '../../lib/rate-limit-settings.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';

const w = MESSAGES.webhooks;

/**
 * What every webhook action checks first: whose endpoints the caller may read or change, the
 * endpoint it names (locked for the change), and the organization's allowance of actions.
 */
export function webhookAccess({ organizations, limits }: { organizations: OrganizationsService; limits: RateLimitSettings }) {
  /** The organization whose endpoints the caller reads (its own) or changes (its own, as an admin of a live organization). */
  async function ownOrganization(caller: Caller, organizationId: string, executor: Executor, writing: boolean) {
    const target = await organizations.visible(caller, organizationId, executor);
    const allowedTo = writing ? mayManageWebhooksOf(caller, target) : mayViewWebhooksOf(caller, target);
    if (!allowedTo) throw new ForbiddenError(w.onlyOwnAdmins);
    return target;
  }

  /** Counts one webhook action of the organization (the transaction's lock on its counter orders its actions). */
  async function count(trx: Executor, organizationId: string) {
    await countOrRefuse(trx, [
      {
        key: `webhooks:${organizationId}`,
        max: limits.webhookActionsPerOrganization,
        windowSeconds: limits.webhookActionsWindowSeconds,
        message: (wait) => w.tooMany429(waitOf(wait)),
      },
    ]);
  }

  async function lockedEndpoint(trx: Executor, organizationId: string, endpointId: string) {
    const row = await trx
      .selectFrom('webhook_endpoints')
      .select(['id', 'url', 'description', 'event_types', 'enabled', 'include_subtree', 'secret_encrypted'])
      .where('id', '=', endpointId)
      .where('organization_id', '=', organizationId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new NotFoundError(w.notFound);
    return row;
  }

  return { ownOrganization, count, lockedEndpoint };
}
export type WebhookAccess = ReturnType<typeof webhookAccess>;
