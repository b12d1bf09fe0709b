import { endpoint } from '../contract.ts';
import {
  entitlementQuerySchema,
  entitlementSchema,
  heartbeatResultSchema,
  heartbeatSchema,
  usageBatchResultSchema,
  usageBatchSchema,
} from '../schemas/agents.ts';
import { machineUsageEventsQuerySchema, usageEventsPageSchema } from '../schemas/usage-events.ts';

/** The machine API an agent runtime calls with an API key. */
export const machineEndpoints = {
  reportUsage: endpoint({
    operationId: 'recordUsageEvents',
    method: 'POST',
    path: '/v1/usage-events',
    summary:
      'Report usage: one event or a batch of up to 1,000, each idempotent by its id per organization; every event is accepted, a duplicate, or rejected with a reason',
    tags: ['machine'],
    auth: 'key',
    scope: 'usage:write',
    body: usageBatchSchema,
    bodyLimit: 2 * 1024 * 1024,
    responses: { 200: usageBatchResultSchema },
  }),
  heartbeat: endpoint({
    operationId: 'recordHeartbeat',
    method: 'POST',
    path: '/v1/heartbeats',
    summary: "Report an activation's status and health score",
    tags: ['machine'],
    auth: 'key',
    scope: 'agents:report',
    body: heartbeatSchema,
    responses: { 200: heartbeatResultSchema },
    errors: [404],
  }),
  entitlement: endpoint({
    operationId: 'getEntitlement',
    method: 'GET',
    path: '/v1/entitlements',
    summary: 'May this organization use this agent now (a live activation and a balance above zero), with the balance',
    tags: ['machine'],
    auth: 'key',
    scope: 'entitlements:read',
    query: entitlementQuerySchema,
    responses: { 200: entitlementSchema },
  }),
  listUsageEvents: endpoint({
    operationId: 'listUsageEvents',
    method: 'GET',
    path: '/v1/usage-events',
    summary:
      "The usage events recorded for an organization within the key's reach, newest occurrence first, paged by cursor, by agent, time or the ledger entry that charged them",
    tags: ['machine'],
    auth: 'key',
    scope: 'usage:read',
    query: machineUsageEventsQuerySchema,
    responses: { 200: usageEventsPageSchema },
    errors: [404],
  }),
};
