import type { QueryClient, QueryKey } from '@tanstack/react-query';
import {
  accountKeys,
  agentKeys,
  apiKeyKeys,
  billingKeys,
  creditKeys,
  dashboardKeys,
  identityKeys,
  invitationKeys,
  invoiceKeys,
  organizationKeys,
  pricingKeys,
  settingsKeys,
  userKeys,
  webhookKeys,
} from './query-keys';

/** A view a change makes stale, where a bare key is not enough. */
export interface StaleView {
  /** The queries under this key are read again. */
  key: QueryKey;
  /** One query under `key` left alone: the change removed what it showed. */
  except?: QueryKey;
  /** Read again without holding the change's promise: the save is done and this view catches up. */
  background?: true;
}

type Row = readonly (QueryKey | StaleView)[];

/**
 * What a new, changed or deleted organization changes beyond the organizations: the dashboard's
 * counts, the parent's capacity (the child's limit) and, when credits moved with it, the ledgers.
 */
const AROUND_ORGANIZATIONS = [dashboardKeys.all, billingKeys.capacities, creditKeys.all] as const;

/** The prefix of every query key. */
const EVERY_QUERY: QueryKey = [];

/** Everything that shows a balance or its threshold: billing, the ledgers, the organizations and the dashboard. */
const BALANCES = [billingKeys.all, creditKeys.all, organizationKeys.all, dashboardKeys.all] as const;

/**
 * After an invoice moves (issued, paid, reversed, voided): the lists, the drafts, the
 * receivables, and the organization lists (their "Overdue invoices" filter).
 */
const INVOICE_LISTS = [invoiceKeys.lists, invoiceKeys.allDrafts, invoiceKeys.allReceivables, organizationKeys.all] as const;

/**
 * The rule of the console's cache: a change made in the console invalidates every view that
 * shows it. Each kind of change names here the queries it makes stale, and every change
 * refreshes through `invalidate`, so this table is the whole list (and
 * `invalidation.test.tsx` holds each row to the views it must reach). A new kind of change, or a
 * new view of existing data, is a row or a key added here.
 */
export const INVALIDATES = {
  /** An allocation, its reversal or an adjustment: every balance and ledger. */
  creditsMoved: () => BALANCES,
  /** Lists, trees and the parent's detail (its balance and child count), the dashboard's counts and balance. */
  organizationCreated: () => [organizationKeys.all, ...AROUND_ORGANIZATIONS],
  /** A name or status: the organizations, the profile (the own organization in the shell), the dashboard and the capacity lists. */
  organizationUpdated: () => [organizationKeys.all, userKeys.me, ...AROUND_ORGANIZATIONS],
  /** The deleted organization answers 404 from now on: it is dropped, not read again. */
  organizationDeleted: (id: string) => [{ key: organizationKeys.all, except: organizationKeys.detail(id) }, ...AROUND_ORGANIZATIONS],
  /** The limit shows in the capacity lists, the organizations and the dashboard (the limit and the children's total). */
  agentLimitSet: () => [billingKeys.capacities, organizationKeys.all, dashboardKeys.all],
  /** Every view that warns about a low balance reads the threshold; it is also the first alert line. */
  lowBalanceThresholdSet: (organizationId: string) => [
    creditKeys.all,
    organizationKeys.all,
    dashboardKeys.all,
    { key: billingKeys.alertLines(organizationId), background: true },
  ],
  /** The threshold's line moves the threshold, which the ledger and the organization list read too. */
  alertLinesChanged: () => BALANCES,
  /** A cap changes whether the child is stopped by it: billing, the organization lists' "Cap reached" and the dashboard. */
  spendControlsSet: () => [billingKeys.all, organizationKeys.all, dashboardKeys.all],
  /** An activation counts against the agent limit: billing, the organizations and the dashboard. */
  activationChanged: (organizationId: string) => [
    agentKeys.activations(organizationId),
    billingKeys.all,
    organizationKeys.all,
    dashboardKeys.all,
  ],
  activationCapSet: (organizationId: string) => [agentKeys.activations(organizationId)],
  agentCatalogChanged: () => [agentKeys.all],
  /** A price reaches the agents' rates, billing and the dashboard's figures. */
  priceSet: () => [pricingKeys.all, agentKeys.all, billingKeys.all, dashboardKeys.all],
  childPriceSet: () => [pricingKeys.all, agentKeys.all, billingKeys.all],
  apiKeysChanged: (organizationId: string) => [apiKeyKeys.organization(organizationId)],
  /** A person: the people lists and the dashboard's team counts. */
  peopleChanged: () => [userKeys.all, dashboardKeys.all],
  invitationsChanged: () => [invitationKeys.all, dashboardKeys.all],
  accountChanged: () => [accountKeys.all],
  /** The endpoint list (its states and counts). */
  webhookEndpointsChanged: (organizationId: string) => [webhookKeys.endpoints(organizationId)],
  /** A test event, an edit or a redelivery: the endpoint list and that endpoint's delivery log (every filter). */
  webhookDeliveriesChanged: (organizationId: string, endpointId: string) => [
    webhookKeys.endpoints(organizationId),
    webhookKeys.deliveries(organizationId, endpointId),
  ],
  /** Drafts are priced at today's billing details. */
  billingDetailsSet: (organizationId: string) => [invoiceKeys.drafts(organizationId)],
  /** The invoice lists follow, and the issuer's details (the next number moved on). */
  invoicesIssued: (organizationId: string) => [...INVOICE_LISTS, invoiceKeys.details(organizationId)],
  /** A payment, its reversal or a void: the invoice itself is replaced by the server's answer. */
  invoiceChanged: () => INVOICE_LISTS,
  /** A claim made, withdrawn or taken effect may be one the house's admins review. */
  domainClaimsChanged: () => [identityKeys.pendingClaims],
  /** A look-up refused: the server keeps when it looked and what it found. */
  domainVerifyRefused: (organizationId: string) => [identityKeys.view(organizationId)],
  domainApproved: (organizationId: string) => [identityKeys.view(organizationId), identityKeys.pendingClaims],
  scimTokensChanged: (organizationId: string) => [identityKeys.scimTokens(organizationId)],
  /** The links every signed-in person reads. */
  globalSettingsSaved: () => [settingsKeys.public],
  /** The person joined another organization: their role and everything they may see changed, so every query. */
  organizationJoined: () => [EVERY_QUERY],
} as const satisfies Record<string, (...args: never[]) => Row>;

export type Change = keyof typeof INVALIDATES;

/** The views a change makes stale, each as a `StaleView`. */
export function staleViews<C extends Change>(change: C, ...args: Parameters<(typeof INVALIDATES)[C]>): StaleView[] {
  const row: Row = (INVALIDATES[change] as (...args: Parameters<(typeof INVALIDATES)[C]>) => Row)(...args);
  return row.map((entry) => (isStaleView(entry) ? entry : { key: entry }));
}

/**
 * Marks a change's views stale (the ones on screen are read again at once). Resolves once the
 * views it holds are read again; `void` it where the change should not wait for them.
 */
export async function invalidate<C extends Change>(
  queryClient: QueryClient,
  change: C,
  ...args: Parameters<(typeof INVALIDATES)[C]>
): Promise<void> {
  const held: Promise<void>[] = [];
  for (const { key, except, background } of staleViews(change, ...args)) {
    const exceptKey = except && JSON.stringify(except);
    const refresh = queryClient.invalidateQueries({
      queryKey: key,
      ...(exceptKey && { predicate: (query) => JSON.stringify(query.queryKey) !== exceptKey }),
    });
    if (background) void refresh;
    else held.push(refresh);
  }
  await Promise.all(held);
}

function isStaleView(entry: QueryKey | StaleView): entry is StaleView {
  return !Array.isArray(entry);
}
