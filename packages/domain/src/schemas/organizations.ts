import { z } from 'zod';
import { LIMITS, PAGING } from '../constants.ts';
import { ORG_STATUSES, ORG_TYPES } from '../hierarchy.ts';
import { MESSAGES } from '../messages.ts';
import { amountInputSchema, amountStringSchema } from './amounts.ts';
import { capStandingSchema } from './spend.ts';
import { CONTROL_TEXT, UNSTORABLE_TEXT, isSingleLineText, isStorableText, pageNumberSchema } from './common.ts';

const m = MESSAGES.organizations;

export const billingSettingsSchema = z.object({
  organization_id: z.uuid(),
  credit_balance: amountStringSchema,
  activated_agent_limit: z.number().int(),
  /** The balance below which the organization's admins are alerted. */
  low_balance_threshold: amountStringSchema,
});
export type BillingSettings = z.infer<typeof billingSettingsSchema>;

/** An organization row, with its billing values flat and nested. */
export const organizationSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  org_type: z.enum(ORG_TYPES),
  parent_org_id: z.uuid().nullable(),
  status: z.enum(ORG_STATUSES),
  disable_parent_invites: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
  credit_balance: amountStringSchema,
  activated_agent_limit: z.number().int(),
  organization_billing_settings: billingSettingsSchema,
});
export type Organization = z.infer<typeof organizationSchema>;

/** An organization named in another's answer. */
export const organizationRefSchema = z.object({ id: z.uuid(), name: z.string() });
export type OrganizationRef = z.infer<typeof organizationRefSchema>;

export const organizationDetailSchema = z.object({
  organization: organizationSchema.extend({
    /** Agents run in the agent service; this console records none yet (docs/decisions.md). */
    active_agent_count: z.number().int(),
    child_count: z.number().int(),
    /**
     * The organizations from the reader's own down to this one's parent, top first: the trail
     * the reader may follow (none above their own). Empty for the reader's own organization.
     */
    ancestors: z.array(organizationRefSchema).default([]),
  }),
});
export type OrganizationDetail = z.infer<typeof organizationDetailSchema>['organization'];

export const orgNameSchema = z
  .string({ error: m.nameMin })
  .trim()
  .min(LIMITS.orgNameMin, m.nameMin)
  .max(LIMITS.orgNameMax, m.nameMax)
  .refine(isStorableText, UNSTORABLE_TEXT)
  .refine(isSingleLineText, CONTROL_TEXT);

export const orgDescriptionSchema = z
  .string()
  .trim()
  .max(LIMITS.orgDescriptionMax, `Description must be at most ${LIMITS.orgDescriptionMax} characters.`)
  .refine(isStorableText, UNSTORABLE_TEXT);

export const createOrganizationSchema = z.object({
  name: orgNameSchema,
  description: orgDescriptionSchema.optional(),
  org_type: z.enum(ORG_TYPES, { error: m.selectType }),
  disable_parent_invites: z.boolean().default(false),
  /** Credits moved from the parent to the new organization (its admins only). */
  initial_balance: amountInputSchema.optional(),
});
export type CreateOrganizationInput = z.input<typeof createOrganizationSchema>;

export const updateOrganizationSchema = z
  .object({
    name: orgNameSchema.optional(),
    description: orgDescriptionSchema.nullable().optional(),
    status: z.enum(ORG_STATUSES, { error: m.selectStatus }).optional(),
    disable_parent_invites: z.boolean().optional(),
  })
  .refine((v) => Object.values(v).some((value) => value !== undefined), {
    message: 'Nothing to update.',
  });
export type UpdateOrganizationInput = z.input<typeof updateOrganizationSchema>;

export const ORG_LIST_VIEWS = ['children', 'descendants'] as const;

const pageSizeSchema = z.coerce
  .number()
  .int()
  .refine((n) => (PAGING.orgPageSizes as readonly number[]).includes(n), {
    message: `Page size must be one of ${PAGING.orgPageSizes.join(', ')}.`,
  });

/** What an organization list may be sorted by: each an index's order (or, for the billing values, a short sort of one page's candidates). */
export const ORG_SORT_KEYS = ['name', 'created', 'balance', 'limit'] as const;
export type OrgSortKey = (typeof ORG_SORT_KEYS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
/** The order a sort key starts in when chosen: names A to Z, the newest and the largest first. */
export const ORG_SORT_DEFAULT_ORDER: Record<OrgSortKey, SortOrder> = { name: 'asc', created: 'desc', balance: 'desc', limit: 'desc' };

/**
 * The children that need their parent's attention: `low_balance`, a balance below its
 * low-balance threshold; `near_limit`, active agents at or near the agent limit
 * (`agentLimitStanding`: at the limit, or at AGENT_LIMIT.nearPercent of it); `overdue_invoices`,
 * billed by the caller's organization past the due date; `cap_reached`, stopped by one of its
 * subtree spend caps (`CapStanding.reached`).
 */
export const ORG_ATTENTION_FILTERS = ['low_balance', 'near_limit', 'overdue_invoices', 'cap_reached'] as const;
export type OrgAttentionFilter = (typeof ORG_ATTENTION_FILTERS)[number];
export const ORG_ATTENTION_LABELS: Record<OrgAttentionFilter, string> = {
  low_balance: 'Low balance',
  near_limit: 'At or near agent limit',
  overdue_invoices: 'Overdue invoices',
  cap_reached: 'Cap reached',
};

export const listOrganizationsQuerySchema = z.object({
  view: z.enum(ORG_LIST_VIEWS).default('children'),
  /** The organization whose children or descendants are listed; the caller's own by default. */
  organization_id: z.uuid().optional(),
  status: z.enum(ORG_STATUSES).optional(),
  org_type: z.enum(ORG_TYPES).optional(),
  attention: z.enum(ORG_ATTENTION_FILTERS).optional(),
  search: z.string().trim().max(LIMITS.orgNameMax).refine(isStorableText, UNSTORABLE_TEXT).optional(),
  page: pageNumberSchema,
  page_size: pageSizeSchema.default(PAGING.orgPageSize),
  sort: z.enum(ORG_SORT_KEYS).default('name'),
  order: z.enum(SORT_ORDERS).default('asc'),
});
export type ListOrganizationsQuery = z.input<typeof listOrganizationsQuerySchema>;
export type ListOrganizationsParams = z.output<typeof listOrganizationsQuerySchema>;

/** A row of an organization list: the organization and where it stands. */
export const organizationListItemSchema = organizationSchema.extend({
  /** Its balance is below its low-balance threshold. */
  low_balance: z.boolean(),
  /** Its live agent activations; null for a viewer who may not read its agents. */
  active_agent_count: z.number().int().nullable(),
  /** `agentLimitStanding` of the active agents against the limit; null when neither, or unread. */
  agent_limit_standing: z.enum(['at', 'near']).nullable(),
  /** Whether its subtree spend caps stop its usage now, and the events they refused this month. */
  cap_standing: capStandingSchema,
});
export type OrganizationListItem = z.infer<typeof organizationListItemSchema>;

export const organizationListSchema = z.object({
  organization: organizationSchema,
  organizations: z.array(organizationListItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  total_pages: z.number().int(),
});
export type OrganizationList = z.infer<typeof organizationListSchema>;

/** One node of the Hierarchy view: expanded on demand, so a large tree stays fast. */
export const treeNodeSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  org_type: z.enum(ORG_TYPES),
  status: z.enum(ORG_STATUSES),
  parent_org_id: z.uuid().nullable(),
  child_count: z.number().int(),
});
export type TreeNode = z.infer<typeof treeNodeSchema>;

export const TREE_CHILDREN_LIMIT = 200;
/** Descendants are counted up to this many, so the tree call stays fast on any tree. */
export const TREE_DESCENDANT_COUNT_CAP = 10_000;

export const treeQuerySchema = z.object({ organization_id: z.uuid().optional() });

export const treeSchema = z.object({
  /** `descendant_count` stops at TREE_DESCENDANT_COUNT_CAP + 1: more than the cap reads as "10,000+". */
  node: treeNodeSchema.extend({ descendant_count: z.number().int() }),
  /** The first TREE_CHILDREN_LIMIT children by name; `child_count` tells if there are more. */
  children: z.array(treeNodeSchema),
});
export type OrganizationTree = z.infer<typeof treeSchema>;

export const verifyChildrenSchema = z.object({
  parentOrganization: z.object({ id: z.uuid(), name: z.string(), org_type: z.enum(ORG_TYPES) }),
  childOrganizations: z.array(z.object({ id: z.uuid(), name: z.string(), org_type: z.enum(ORG_TYPES), status: z.enum(ORG_STATUSES) })),
  summary: z.object({
    directChildrenCount: z.number().int(),
    rpcReturnedIds: z.number().int(),
    childOrgsRetrieved: z.number().int(),
  }),
});
export type VerifyChildren = z.infer<typeof verifyChildrenSchema>;

export const idParamsSchema = z.object({ id: z.uuid({ error: 'Not a valid id.' }) });
