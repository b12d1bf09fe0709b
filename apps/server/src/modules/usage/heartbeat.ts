import { sql, type Kysely } from 'kysely';
import { HEARTBEAT_AUDIT, MESSAGES, type ActivationStatus, type heartbeatResultSchema } from '@console/domain';
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
   * reach, deleted, or simply has none. A report that changes nothing but the time is not
   * audited. A change of status is, at most once an hour per activation (the row counts the
   * changes since the last one), and a change into error whenever the last row was not one:
   * a runtime that flaps between statuses writes no row per request.
   */
  async function heartbeat(
    key: VerifiedKey,
    input: { organization_id: string; agent: string; status: ActivationStatus; health_score?: number },
    info: ClientInfo,
  ): Promise<z.infer<typeof heartbeatResultSchema>> {
    return db.transaction().execute(async (trx) => {
      const { rows } = await sql<{
        id: string;
        status: ActivationStatus;
        organization_id: string;
        status_audited: ActivationStatus | null;
        status_changes_unaudited: number;
        audit_due: boolean;
      }>`
        select v.id, v.status, v.organization_id, v.status_audited, v.status_changes_unaudited,
          v.status_audited_at is null
            or v.status_audited_at <= now() - make_interval(hours => ${HEARTBEAT_AUDIT.statusAuditHours}) as audit_due
        from agent_activations v
        join organizations o on o.id = v.organization_id
        join agent_types t on t.id = v.agent_type_id
        where v.organization_id = ${input.organization_id} and t.code = ${input.agent} and v.deactivated_at is null
          and o.deleted_at is null and starts_with(o.path, ${key.organization.path})
        for update of v`.execute(trx);
      const activation = rows[0];
      if (!activation) throw new NotFoundError(m.noLiveActivation);
      const changed = activation.status !== input.status;
      const audited = changed && (activation.audit_due || (input.status === 'error' && activation.status_audited !== 'error'));
      const updated = await trx
        .updateTable('agent_activations')
        .set({
          status: input.status,
          ...(input.health_score !== undefined && { health_score: input.health_score }),
          last_active_at: sql`now()`,
          ...(audited && { status_audited_at: sql`now()`, status_audited: input.status, status_changes_unaudited: 0 }),
          ...(changed && !audited && { status_changes_unaudited: sql`status_changes_unaudited + 1` }),
        })
        .where('id', '=', activation.id)
        .returning(['id', 'status', 'health_score', 'last_active_at'])
        .executeTakeFirstOrThrow();
      if (audited) {
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
            // This change and those reported since the last row, which wrote none.
            changes: activation.status_changes_unaudited + 1,
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
