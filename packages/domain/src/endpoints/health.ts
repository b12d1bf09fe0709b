import { z } from 'zod';
import { endpoint } from '../contract.ts';
import { healthSchema } from '../schemas/common.ts';

/** Whether a database this server uses answers: `ok` or `unreachable`. */
const reachSchema = z.enum(['ok', 'unreachable']);

/**
 * Readiness: whether this server should be sent traffic. Ready when the database answers,
 * its applied migrations and SQL rules are exactly the ones this release ships, the read
 * replica (when one is configured) answers, and the server is not shutting down.
 */
export const readinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: reachSchema,
  /** The read replica's state; null when no replica is configured. */
  replica: reachSchema.nullable(),
  migrations: z.object({
    /** Every migration this release ships is applied, and no other; every SQL rule is at its file's text. */
    at_head: z.boolean(),
    /** The number of the last migration applied; null while it cannot be read. */
    applied: z.number().int().nullable(),
    /** The number of the last migration this release ships. */
    expected: z.number().int(),
  }),
  /** The server is shutting down: it finishes what is under way and takes nothing new. */
  closing: z.boolean(),
});
export type Readiness = z.infer<typeof readinessSchema>;

export const healthEndpoints = {
  check: endpoint({
    operationId: 'getHealth',
    method: 'GET',
    path: '/health',
    summary: 'Liveness, database state, release and schema version',
    tags: ['ops'],
    auth: 'public',
    responses: { 200: healthSchema, 503: healthSchema },
  }),
  ready: endpoint({
    operationId: 'getReadiness',
    method: 'GET',
    path: '/health/ready',
    summary: 'Readiness: database (and replica) reachable, migrations at head, not shutting down',
    tags: ['ops'],
    auth: 'public',
    responses: { 200: readinessSchema, 503: readinessSchema },
  }),
};
