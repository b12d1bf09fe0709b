import { z } from 'zod';
import { alertLineSchema } from './alert-lines.ts';
import { ORG_STATUSES, ORG_TYPES } from '../hierarchy.ts';
import { ACTIVATION_STATUSES, AGENT_KINDS, decimal4StringSchema } from './agents.ts';
import { amountStringSchema } from './amounts.ts';
import { capStandingSchema } from './spend.ts';
import { ENTRY_TYPES } from './credits.ts';
import { USER_STATUSES } from './users.ts';

/** `GET /api/dashboard`: the caller's own organization by default, or another one in scope. */
export const dashboardQuerySchema = z.object({ organization_id: z.uuid().optional() });
export type DashboardQuery = z.input<typeof dashboardQuerySchema>;

/** A percentage rounded to one decimal, or null when the figure it compares with is zero. */
const percentSchema = z.number().nullable();

/** Organizations created in the last N days against the N days before. */
const growthPeriodSchema = z.object({
  days: z.number().int(),
  current: z.number().int(),
  previous: z.number().int(),
  percent: percentSchema,
});

const countsBy = <T extends readonly [string, ...string[]]>(keys: T) =>
  z.object(Object.fromEntries(keys.map((key) => [key, z.number().int()])) as { [K in T[number]]: z.ZodNumber });

/** Credits consumed (net of refunds) on one UTC day. */
export const usageDaySchema = z.object({
  date: z.iso.date(),
  consumption: amountStringSchema,
  refunds: amountStringSchema,
  net: amountStringSchema,
});
export type UsageDay = z.infer<typeof usageDaySchema>;

export const dashboardChildSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  org_type: z.enum(ORG_TYPES),
  status: z.enum(ORG_STATUSES),
  credit_balance: amountStringSchema,
  activated_agent_limit: z.number().int(),
});
export type DashboardChild = z.infer<typeof dashboardChildSchema>;

/** A direct child needing its parent's attention: its balance is below its low-balance threshold, or a spend cap stops it. */
export const dashboardLowChildSchema = dashboardChildSchema.extend({
  low_balance_threshold: amountStringSchema,
  /** Its balance is below its low-balance threshold. */
  low_balance: z.boolean(),
  /** Whether its subtree spend caps stop its usage now, and the events they refused this month. */
  cap_standing: capStandingSchema,
  /** Whether it has an active admin of its own; without one, its low balance is mailed to its parent's admins. */
  has_active_admin: z.boolean(),
});
export type DashboardLowChild = z.infer<typeof dashboardLowChildSchema>;

/** Usage of one agent type over a period: accepted events, their units and the credits they took. */
export const dashboardAgentUsageSchema = z.object({
  agent_type_id: z.uuid(),
  code: z.string(),
  name: z.string(),
  unit: z.string(),
  events: z.number().int(),
  units: decimal4StringSchema,
  /** What the events took from the balance (whole cents; the sub-cent rest is carried). */
  credits: amountStringSchema,
});
export type DashboardAgentUsage = z.infer<typeof dashboardAgentUsageSchema>;

/** The organization's usage over the last N days: totals, and each agent type with usage, most credits first. */
const agentUsagePeriodSchema = z.object({
  days: z.number().int(),
  events: z.number().int(),
  credits: amountStringSchema,
  by_agent: z.array(dashboardAgentUsageSchema),
});
export type DashboardAgentUsagePeriod = z.infer<typeof agentUsagePeriodSchema>;

/** A live activation as its runtime last reported it. */
export const dashboardActivationSchema = z.object({
  id: z.uuid(),
  agent_type_id: z.uuid(),
  code: z.string(),
  name: z.string(),
  kind: z.enum(AGENT_KINDS),
  status: z.enum(ACTIVATION_STATUSES),
  health_score: z.number().int().min(0).max(100).nullable(),
  last_active_at: z.string().nullable(),
  activated_at: z.string(),
});
export type DashboardActivation = z.infer<typeof dashboardActivationSchema>;

/** Every figure of the dashboard in one answer; sources and methods are in docs/dashboard.md. */
export const dashboardSchema = z.object({
  organization: z.object({
    id: z.uuid(),
    name: z.string(),
    org_type: z.enum(ORG_TYPES),
    status: z.enum(ORG_STATUSES),
  }),
  /** The database time all periods are measured from. */
  generated_at: z.string(),
  organizations: z.object({
    /** Live descendants, the organization itself excluded. */
    total: z.number().int(),
    by_status: countsBy(ORG_STATUSES),
    by_type: countsBy(ORG_TYPES),
    /** The most recently created descendants, newest first. */
    recent: z.array(
      z.object({
        id: z.uuid(),
        name: z.string(),
        org_type: z.enum(ORG_TYPES),
        status: z.enum(ORG_STATUSES),
        created_at: z.string(),
      }),
    ),
    growth: z.object({ monthly: growthPeriodSchema, quarterly: growthPeriodSchema, yearly: growthPeriodSchema }),
  }),
  credits: z.object({
    balance: amountStringSchema,
    /** Credits sent to children (allocation_sent) less those given back (reversal_received), as a positive figure. */
    allocated: amountStringSchema,
    /** allocation_received + initial_balance, less allocations given back (reversal_sent). */
    received: amountStringSchema,
    usage: z.object({
      period_days: z.number().int(),
      /** Net consumption (consumption minus refunds) of the last 30 days, never below zero. */
      current_period: amountStringSchema,
      previous_period: amountStringSchema,
      percent_change: percentSchema,
      /** The last 7 UTC days, oldest first, today last. */
      history: z.array(usageDaySchema),
    }),
    /**
     * Net consumption of the organization and every organization below it (its subtree), over
     * the same periods as `usage`: what a parent's tree consumed. A tenant's is its own.
     */
    subtree_usage: z.object({ current_period: amountStringSchema, previous_period: amountStringSchema, percent_change: percentSchema }),
    /** The balance below which the organization's admins are alerted. */
    low_balance_threshold: amountStringSchema,
    forecast: z.object({
      /**
       * The days the average is taken over: 30, or fewer when the organization's first
       * consumption is more recent (at least 1); 0 without consumption.
       */
      basis_days: z.number().int(),
      average_daily: amountStringSchema,
      next_month: amountStringSchema,
      next_quarter: amountStringSchema,
      method: z.string(),
    }),
    /** Balance ÷ the next month's forecast, one decimal; null when there is no usage. */
    depletion_months: z.number().nullable(),
    by_child: z.object({
      count: z.number().int(),
      total_balance: amountStringSchema,
      /** The children with the largest balances (at most DASHBOARD_CHILDREN_SHOWN). */
      children: z.array(dashboardChildSchema),
    }),
    /**
     * The direct children below their low-balance threshold or stopped by a spend cap
     * (`cap_standing.reached`), lowest balance first (at most DASHBOARD_CHILDREN_SHOWN), with
     * their count: for viewers who watch the children's balances (`mayWatchChildBalances`); for
     * others, none and 0.
     */
    children_needing_attention: z.object({ count: z.number().int(), children: z.array(dashboardLowChildSchema) }),
    /** The organization's own alert lines that are crossed now, each with its bound: the attention list's own entries. */
    crossed_alert_lines: z.array(alertLineSchema),
    by_entry_type: z.array(z.object({ entry_type: z.enum(ENTRY_TYPES), total: amountStringSchema, count: z.number().int() })),
  }),
  resources: z.object({
    activated_agent_limit: z.number().int(),
    /** Live activations (the count the activated agent limit bounds). */
    active_agents: z.number().int(),
    children_limit_total: z.number().int(),
  }),
  team: z.object({ total: z.number().int(), by_status: countsBy(USER_STATUSES) }),
  agents: z.object({
    /** Live activations by what their runtime last reported. */
    by_status: countsBy(ACTIVATION_STATUSES),
    /** The mean health score of the live activations that reported one, one decimal; null when none has. */
    average_health: z.number().nullable(),
    /** The live activations, worst health first (unreported last), at most DASHBOARD_ACTIVATIONS_SHOWN. */
    activations: z.array(dashboardActivationSchema),
    /** Usage of the organization's own events by the time they occurred. */
    usage: z.object({ last_7_days: agentUsagePeriodSchema, last_30_days: agentUsagePeriodSchema }),
    /**
     * The same figures over the organization and every organization below it (a parent's
     * agents run in its tenants); null for an organization type that has no children.
     */
    subtree: z
      .object({
        /** Live activations of the live organizations of the subtree, by what their runtime last reported. */
        by_status: countsBy(ACTIVATION_STATUSES),
        average_health: z.number().nullable(),
        /** Usage of the subtree's events (deleted organizations' included: what was used was used). */
        usage: z.object({ last_7_days: agentUsagePeriodSchema, last_30_days: agentUsagePeriodSchema }),
      })
      .nullable(),
  }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export const DASHBOARD_CHILDREN_SHOWN = 10;
export const DASHBOARD_ACTIVATIONS_SHOWN = 20;
/** The periods of the agent usage figures, in days. */
export const DASHBOARD_AGENT_USAGE_DAYS = [7, 30] as const;
export const DASHBOARD_USAGE_PERIOD_DAYS = 30;
