// Relative, not through '@/': the e2e journeys read every feature's words from outside the app's alias.
import { withFeatureWords } from '../../lib/wording';

/** The words only the dashboard feature shows, over the console's shared ones (`withFeatureWords`). */
export const MESSAGES = withFeatureWords({
  /** Labels of the dashboard. */
  dashboardPages: {
    loadFailed: 'Failed to load performance metrics',
    tabOverview: 'Overview',
    tabAgents: 'Agents',
    tabCredits: 'Credits',
    tabPerformance: 'Performance',
    performanceMetrics: 'Performance Metrics',
    organizationStatus: 'Organization Status',
    childOrganizations: 'Child Organizations',
    childrenNeedingAttention: 'Children Needing Attention',
    childrenNeedingAttentionDescription: (count: number) =>
      `${count} direct ${count === 1 ? 'child is' : 'children are'} below ${count === 1 ? 'its' : 'their'} low-balance threshold or stopped by ${count === 1 ? 'its' : 'their'} spend cap.`,
    noActiveAdmin: 'No active admin: its low-balance alerts are mailed to you.',
    /** A child stopped by its spend cap, beside the "Cap reached" marker. */
    capStopped: (refused: number) =>
      `New usage is refused (${refused.toLocaleString('en-US')} ${refused === 1 ? 'event' : 'events'} this month)`,
    allLowChildren: 'All low-balance children',
    allCappedChildren: 'All children at their spend cap',
    revenueOverview: 'Revenue Overview',
    revenueNote: 'No revenue is recorded in this console; these are the credit flows of the organization’s ledger.',
    agentPerformance: 'Agent Performance',
    agentAnalytics: 'Agent Analytics',
    creditUsage: 'Credit Usage',
    creditBalance: 'Credit Balance',
    allocateCredits: 'Allocate Credits',
    resourceUtilization: 'Resource Utilization',
    tools: 'Tools',
    monthlyUsage: 'Monthly Usage',
    availableAgents: 'Available Agents',
    availableAgentsHint: (active: string, limit: string) => `Free to activate: ${active} active of a limit of ${limit}`,
    projectedDepletion: 'Projected Depletion',
    depletionMonths: (months: number) => `${months} ${months === 1 ? 'month' : 'months'}`,
    noUsageYet: 'No usage yet',
    /** A parent's credit card: its subtree's usage first, its own a click away. */
    usageScope: 'Whose usage',
    usageHintSubtree: (days: number) => `Net consumption with every organization below, last ${days} days`,
    usageHintOwn: (days: number) => `Net consumption of the last ${days} days`,
    /** A parent whose own agents used nothing: its balance has no projection of its own. */
    noOwnUsage: 'No usage of its own',
    noChildren: 'This organization has no child organizations yet.',
    noUsageInHistory: 'No credits were consumed in the last 7 days.',
    recentlyCreated: 'Recently Created',
    noneCreated: 'No organizations created yet.',
    notComparable: 'no earlier figure to compare',
    agentPerformanceDescription: (organization: string) => `Live agents of ${organization}, as their runtimes last reported them.`,
    agentAnalyticsDescription: 'Usage the runtimes reported, by agent: events, units and the credits they took.',
    noActivations: 'No agents are activated for this organization.',
    averageHealth: 'Average health',
    noUsageInPeriod: (days: number) => `No usage was reported in the last ${days} days.`,
    /** A parent's agents: its own, or with every organization below it. */
    agentsScope: 'Whose agents',
    agentsScopeSubtree: 'With everything below',
    agentsScopeOwn: (organization: string) => `${organization} only`,
    subtreeAgentsTitle: (organization: string) => `Live agents of ${organization} and every organization below it`,
    lowestHealthShown: (shown: number, total: number) => `The ${shown} with the lowest health of ${total} live agents are shown.`,
    notReportedFigures: 'Runtimes report usage, status and health; success rates and response times are not reported, so none are shown.',
    forecastBasis: (days: number) => (days === 0 ? 'No consumption yet' : `Average over the last ${days} ${days === 1 ? 'day' : 'days'}`),
  },
  /** Labels of the Pricing page and the dashboard's earnings card. */
  pricingPages: {
    earnedTitle: 'Earned this month',
    earnedDescription: (month: string) => `Your margin on your child organizations' usage in ${month} (UTC).`,
    earnedLoadFailed: 'Failed to load your earnings',
    earnedNothing: 'Nothing earned yet this month.',
    /** A seller whose parent raised what it pays above its own book: it learns it here, not only on Pricing. */
    earnedBelowPrice: (agents: string[]) =>
      `Below your price: what you charge for ${agents.length <= 2 ? agents.join(' and ') : `${agents.slice(0, -1).join(', ')} and ${agents.at(-1)}`} is now below what you pay, so your children pay your own price and you earn nothing on ${agents.length === 1 ? 'it' : 'them'}.`,
    earnedSetPrice: 'Set new prices',
    byChild: 'By child organization',
    byAgent: 'By agent',
    childColumn: 'Organization',
    agentColumn: 'Agent',
    amountColumn: 'Earned',
    viewInLedger: 'View earnings in the ledger',
  },
  /**
   * Billing details, invoices, payments, receivables and statements: the console's own words
   * (MESSAGES.invoicePages). What the server answers is in the domain's MESSAGES.invoices.
   */
  invoicePages: {
    // Receivables (the dashboard card).
    receivables: {
      title: 'Receivables',
      description: 'What each child still owes on your invoices, by the age of the invoice.',
      loadFailed: 'Failed to load the receivables',
      empty: 'No child owes anything on your invoices.',
      label: 'Receivables by child',
      child: 'Child',
      days0to30: '0–30 days',
      days31to60: '31–60 days',
      days61plus: '61+ days',
      total: 'Total',
      overdue: 'Overdue',
      overdueCount: (count: number) => (count === 1 ? '1 overdue invoice' : `${count} overdue invoices`),
      totalsRow: 'All children',
      invoicesOf: (child: string) => `Invoices of ${child}`,
      allInvoices: 'All invoices',
    },
  },
  /**
   * An organization's alert lines: the console's own words (MESSAGES.alertLinePages). What the
   * server answers, and each line's sentence, come from the domain (MESSAGES.alertLines).
   */
  alertLinePages: {
    /** The dashboard's attention list. */
    crossedTitle: 'Alert lines crossed',
    crossedDescription: (count: number) =>
      `${count} ${count === 1 ? 'line of this organization is' : 'lines of this organization are'} crossed now.`,
  },
});
