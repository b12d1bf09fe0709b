import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { RateLimitSettings } from '../../lib/rate-limit-settings.ts';
import type { SecretSealer } from '../../lib/sealer.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { webhookAccess } from './access.ts';
import type { AllowedHosts } from './address.ts';
import { createDeliveries } from './deliveries.ts';
import { createEndpoints } from './endpoints.ts';
import { createRedeliveries } from './redeliver.ts';
import { createRotate } from './rotate.ts';

export interface WebhooksServiceOptions {
  db: Kysely<DB>;
  organizations: OrganizationsService;
  sealer: SecretSealer;
  allowed: AllowedHosts;
  limits: RateLimitSettings;
  /** Asks the sender for a look now: a test event or a redelivery is sent within a moment. */
  wake: () => void;
}

/**
 * Webhook endpoints of an organization, managed by its own admins: registered with a URL
 * (https, to a public address; http and private addresses only where the server allows
 * them), the events it receives, and whether its subtree's events come too (endpoints.ts).
 * The signing secret is answered once, when made or rotated (rotate.ts), and stored sealed.
 * Every change is audited without the secret, and counted against the organization's
 * allowance of webhook actions (access.ts; test events and redeliveries: redeliver.ts). The
 * delivery logs are read in deliveries.ts; the sending is the dispatcher's.
 */
export function createWebhooksService({ db, organizations, sealer, allowed, limits, wake }: WebhooksServiceOptions) {
  const access = webhookAccess({ organizations, limits });
  const { list, create, update, remove } = createEndpoints({ db, access, sealer, allowed });
  const { rotate } = createRotate({ db, access, sealer });
  const { deliveries } = createDeliveries({ db, access });
  const { test, redeliver, redeliverFailed } = createRedeliveries({ db, access, limits, wake });
  return { list, create, update, remove, rotate, deliveries, test, redeliver, redeliverFailed };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
