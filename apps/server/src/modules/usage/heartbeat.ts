import { sql, type Kysely } from 'kysely';
import { MESSAGES, type ActivationStatus, type heartbeatResultSchema } from '@console/domain';
import type { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import type { VerifiedKey } from '../../lib/api-key.ts';
import { writeAudit } from '../../lib/audit.ts';
import { NotFoundError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';

const m = MESSAGES.usage;

export function createHeartbeat({ db }: { db: Kysely<DB> }) {
  /**
   * A runtime's report on the live activation of an agent in an organization within the
   * key's reach: its status, its health score (kept when not sent) and the time it was last
   * heard from. 404 when there is no such activation, whether the organization is out of
   * reach, deleted, or simply has none. A change of status is audited; a report that
   * changes nothing but the time is not.
   */
  async function heartbeat(
    key: VerifiedKey,
    input: { organization_id: string; agent: string; status: ActivationStatus; health_score?: number },
    info: ClientInfo,
  ): Promise<z.infer<typeof heartbeatResultSchema>> {
    return db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: string; status: ActivationStatus; organization_id: string }>`
        select v.id, v.status, v.organization_id from agent_activations v
        join organizations o on o.id = v.organization_id
        join agent_types t on t.id = v.agent_type_id
        where v.organization_id = ${input.organization_id} and t.code = ${input.agent} and v.deactivated_at is null
          and o.deleted_at is null and starts_with(o.path, ${key.organization.path})
        for update of v`.execute(trx);
      const activation = rows[0];
      if (!activation) throw new NotFoundError(m.noLiveActivation);
      const updated = await trx
        .updateTable('agent_activations')
        .set({
          status: input.status,
          ...(input.health_score !== undefined && { health_score: input.health_score }),
          last_active_at: sql`now()`,
        })
        .where('id', '=', activation.id)
        .returning(['id', 'status', 'health_score', 'last_active_at'])
        .executeTakeFirstOrThrow();
      if (activation.status !== input.status) {
        await writeAudit(trx, {
          ...info,
          actorUserId: null,
          organizationId: activation.organization_id,
          action: 'agents.status_reported',
          targetType: 'agent_activation',
          targetId: activation.id,
          details: {
            agent: input.agent,
            from: activation.status,
            to: input.status,
            health_score: updated.health_score,
            key_name: key.name,
            key_prefix: key.prefix,
          },
        });
      }
      return {
        activation_id: updated.id,
        status: updated.status,
        health_score: updated.health_score,
        last_active_at: updated.last_active_at,
      };
    });
  }

  return { heartbeat };
}
