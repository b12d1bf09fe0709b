import { sql, type Kysely } from 'kysely';
import {
  MESSAGES,
  TREE_CHILDREN_LIMIT,
  agentLimitRefusal,
  mayAllocateTo,
  maySetAgentLimit,
  maySetLowBalanceThreshold,
  type BillingResponse,
  type CapacityResponse,
} from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { createSpendControls } from './spend-controls.ts';
import { createAlertLines } from './alert-lines.ts';

const b = MESSAGES.billing;

/** Sum of the live children's limits of an organization. */
async function childrenTotal(executor: Executor, organizationId: string): Promise<number> {
  const row = await executor
    .selectFrom('organizations as o')
    .innerJoin('organization_billing_settings as s', 's.organization_id', 'o.id')
    .select(sql<number>`coalesce(sum(s.activated_agent_limit), 0)::int`.as('total'))
    .where('o.parent_org_id', '=', organizationId)
    .where('o.deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.total;
}

/** The most an organization's limit may be: its parent's limit minus its siblings' limits. */
async function maxLimit(executor: Executor, organizationId: string, parentId: string | null): Promise<number | null> {
  if (!parentId) return null;
  const row = await executor
    .selectFrom('organization_billing_settings as p')
    .select(
      sql<number>`(p.activated_agent_limit - coalesce((
        select sum(s.activated_agent_limit) from organizations o
        join organization_billing_settings s on s.organization_id = o.id
        where o.parent_org_id = ${parentId} and o.deleted_at is null and o.id <> ${organizationId}), 0))::int`.as('max'),
    )
    .where('p.organization_id', '=', parentId)
    .executeTakeFirstOrThrow();
  return row.max;
}

export function createBillingService({ db, organizations }: { db: Kysely<DB>; organizations: OrganizationsService }) {
  const spendControls = createSpendControls({ db, organizations });
  const alertLines = createAlertLines({ db, organizations });
  return {
    alertLines,
    spendControls: spendControls.get,
    setSpendControls: spendControls.set,
    async get(caller: Caller, id: string): Promise<BillingResponse> {
      const org = await organizations.visible(caller, id);
      const [children, max, active] = await Promise.all([
        childrenTotal(db, org.id),
        maxLimit(db, org.id, org.parent_org_id),
        organizations.activeAgentCount(org.id),
      ]);
      return {
        organization_id: org.id,
        billing_settings: {
          credit_balance: org.credit_balance,
          activated_agent_limit: org.activated_agent_limit,
          low_balance_threshold: org.low_balance_threshold,
        },
        active_agent_count: active,
        max_activated_agent_limit: max,
        children_limit_total: children,
        permissions: {
          manage_activated_agent_limit: maySetAgentLimit(caller, org),
          allocate_credits: mayAllocateTo(caller, org),
        },
      };
    },

    async capacity(caller: Caller, id: string): Promise<CapacityResponse> {
      const org = await organizations.visible(caller, id);
      const [total, children] = await Promise.all([
        childrenTotal(db, org.id),
        db
          .selectFrom('organizations as o')
          .innerJoin('organization_billing_settings as s', 's.organization_id', 'o.id')
          .select(['o.id', 'o.name', 'o.org_type', 'o.status', 's.activated_agent_limit'])
          .where('o.parent_org_id', '=', org.id)
          .where('o.deleted_at', 'is', null)
          .orderBy('o.name')
          .orderBy('o.id')
          .limit(TREE_CHILDREN_LIMIT)
          .execute(),
      ]);
      return {
        organization_id: org.id,
        activated_agent_limit: org.activated_agent_limit,
        children_limit_total: total,
        available_parent_capacity: org.activated_agent_limit - total,
        children,
      };
    },

    /**
     * Sets an activated agent limit within the parent's capacity, not below what the
     * children hold and not below the organization's live activations. The parent's and the
     * organization's rows are locked in id order, so concurrent changes under one parent are
     * serialized and cannot overshoot; an activation locks the organization's row too (it
     * holds no other billing row), so a limit change and an activation are serialized and
     * the count read here is final.
     */
    async setAgentLimit(caller: Caller, id: string, limit: number, info: ClientInfo): Promise<BillingResponse> {
      await db.transaction().execute(async (trx) => {
        const target = await organizations.visible(caller, id, trx);
        // A direct child's limit is set by its parent's admins; the house's by its own admins.
        if (!maySetAgentLimit(caller, target)) throw new ForbiddenError(b.onlyParentAdmins);
        const locked = [target.id, ...(target.parent_org_id ? [target.parent_org_id] : [])].sort();
        const rows = await trx
          .selectFrom('organization_billing_settings')
          .select(['organization_id', 'activated_agent_limit'])
          .where('organization_id', 'in', locked)
          .orderBy('organization_id')
          .forUpdate()
          .execute();
        // Deleted meanwhile? A deletion locks the balance row first, so it is seen by now.
        const live = await trx
          .selectFrom('organizations')
          .select('id')
          .where('id', '=', target.id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!live) throw new NotFoundError(MESSAGES.organizations.notFound);
        const previous = rows.find((r) => r.organization_id === target.id)!.activated_agent_limit;
        const [children, max, active] = await Promise.all([
          childrenTotal(trx, target.id),
          maxLimit(trx, target.id, target.parent_org_id),
          organizations.activeAgentCount(target.id, trx),
        ]);
        const refusal = agentLimitRefusal(limit, { childrenTotal: children, active, max });
        if (refusal === 'below_children_limits') throw new RuleError(b.belowChildren(children), refusal);
        if (refusal === 'above_parent_capacity') throw new RuleError(b.aboveCapacity(Math.max(max ?? 0, 0)), refusal);
        if (refusal === 'below_active_agents') throw new RuleError(b.belowActive(active, limit), refusal);
        await trx
          .updateTable('organization_billing_settings')
          .set({ activated_agent_limit: limit, updated_at: sql`now()` })
          .where('organization_id', '=', target.id)
          .execute();
        await auditAction(trx, caller, info, {
          organizationId: target.id,
          action: 'billing.agent_limit',
          targetType: 'organization',
          targetId: target.id,
          details: { before: previous, after: limit },
        });
      });
      return this.get(caller, id);
    },

    /**
     * Sets the balance below which the organization's admins are alerted, by its own admins.
     * Changing it alerts nobody: an alert is queued only when a balance change crosses it.
     */
    async setLowBalanceThreshold(caller: Caller, id: string, threshold: string, info: ClientInfo): Promise<BillingResponse> {
      await db.transaction().execute(async (trx) => {
        const target = await organizations.visible(caller, id, trx);
        if (!maySetLowBalanceThreshold(caller, target)) throw new ForbiddenError(b.thresholdOnlyOwnAdmins);
        const row = await trx
          .selectFrom('organization_billing_settings')
          .select('low_balance_threshold')
          .where('organization_id', '=', target.id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('organization_billing_settings')
          .set({ low_balance_threshold: threshold, updated_at: sql`now()` })
          .where('organization_id', '=', target.id)
          .execute();
        await auditAction(trx, caller, info, {
          organizationId: target.id,
          action: 'billing.low_balance_threshold',
          targetType: 'organization',
          targetId: target.id,
          details: { before: row.low_balance_threshold, after: threshold },
        });
      });
      return this.get(caller, id);
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
