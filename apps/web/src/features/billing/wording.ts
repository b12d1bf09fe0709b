// Relative, not through '@/': the e2e journeys read every feature's words from outside the app's alias.
import { withFeatureWords } from '../../lib/wording';

/** The words only the billing feature shows, over the console's shared ones (`withFeatureWords`). */
export const MESSAGES = withFeatureWords({
  billing: {
    loadFailed: (message: string) => `Error loading agent limits: ${message}`,
  },
  /** Labels of the billing, settings and resources screens. */
  billingPages: {
    billingTitle: 'Billing',
    billingManagementTitle: 'Billing Management',
    tabCredits: 'Credits',
    tabChildOrganizations: 'Child Organizations',
    tabCreditAllocation: 'Credit Allocation',
    maxLimit: 'Most this limit may be',
    noParentCap: 'No parent limit (house)',
    /** The credits card of a direct child: the balance shown is the child's, the credits come from the viewer's organization. */
    allocateToHint: "This organization's balance. Allocate Credits moves credits from your organization's balance into it.",
  },
  /** Monthly spend caps (per child subtree, activation and API key) and automatic top-ups. */
  spendPages: {
    title: 'Spend controls',
    description: 'Caps count usage by the calendar month (UTC) it occurred in.',
    capHeading: 'Monthly spend cap',
    chargedOf: (charged: string, cap: string, month: string) => `Charged ${charged} of ${cap} this month (${month})`,
    chargedNoCap: (charged: string, month: string) => `Charged ${charged} this month (${month})`,
    topUpHeading: 'Automatic top-up',
    topUpRule: (below: string, amount: string, parent: string, max: string) =>
      `When the balance falls below ${below}, move ${amount} from ${parent}, at most ${max} a month.`,
    theParent: 'the parent organization',
    noTopUp: 'No automatic top-up',
    toppedUpThisMonth: (amount: string) => `Topped up this month: ${amount}`,
    lastTopUp: (when: string, outcome: string) => `Last top-up, ${when}: ${outcome}`,
    outcomes: {
      topped_up: 'credits were moved',
      parent_short: "not made, the parent's balance was too low",
      monthly_max: 'not made, it would have passed the monthly maximum',
      not_needed: 'not needed, the balance was not below the line',
      no_rule: 'not made, no top-up was set',
      not_active: 'not made, the organization is not active',
    },
    topUpsHeading: 'Top-ups this month',
    noTopUps: 'None this month.',
    /** What a top-up request was for: a crossing below the line, or usage refused for want of credits. */
    topUpForCrossed: (balance: string | null) =>
      balance ? `The balance fell to ${balance}, below the line` : 'The balance fell below the line',
    topUpForRefused: (refused: string | null, balance: string | null) =>
      refused && balance ? `Usage of ${refused} was refused at a balance of ${balance}` : 'Usage was refused for want of credits',
    topUpMoved: (amount: string) => `${amount} moved`,
    topUpReversed: 'Reversed',
    edit: 'Edit',
    editAria: 'Edit spend controls',
    editTitle: (name: string) => `Spend controls of ${name}`,
    editDescription:
      'Caps count usage by the UTC day, ISO week (Monday to Sunday) or calendar month it occurred in. Usage that would pass any of them is refused.',
    capLabel: 'Monthly spend cap (credits)',
    capHint: 'Leave empty for no cap.',
    topUpSwitch: 'Automatic top-up',
    belowLabel: 'When the balance falls below (credits)',
    amountLabel: 'Move this amount (credits)',
    monthlyMaxLabel: 'At most this much a month (credits)',
    topUpExpiryLabel: 'Top-up credits expire after (days, optional)',
    topUpPriorityLabel: 'Priority of top-up credits (0–100, optional)',
    topUpAgentsNote: (names: string) => `Top-up credits are limited to: ${names}.`,
    /** A switched-on top-up's fields left empty: what is missing. */
    topUpMissing: {
      below: 'Enter the balance below which a top-up is made.',
      amount: 'Enter how many credits each top-up moves.',
      monthly_max: 'Enter the most the top-ups may move in a month.',
    },
    /** Saving a line above the child's balance tops it up at once: said before it is saved. */
    topUpNowTitle: 'Credits move when you save',
    topUpNow: (child: string, balance: string, below: string, amount: string) =>
      `${child} holds ${balance}, below the line of ${below}: saving moves ${amount} from your organization to ${child} at once.`,
    saveAndTopUp: 'Save and move credits now',
    saved: 'Spend controls saved',
    saveFailed: 'Failed to save the spend controls',
    loadFailed: 'Failed to load the spend controls',
    /** A new cap at or below what its window holding now has charged: the dialog's warning before saving. */
    capAtOrBelowCharged: (window: 'day' | 'week' | 'month', charged: string) =>
      `This ${window} has already charged ${charged}, as much as this ${window === 'day' ? 'daily' : window === 'week' ? 'weekly' : 'monthly'} cap or more. Once saved, new usage is refused at once, until the ${window} ends (UTC).`,
    dailySpendCapLabel: 'Daily spend cap (credits)',
    weeklySpendCapLabel: 'Weekly spend cap (credits, Monday to Sunday)',
  },
  /**
   * Credit grants: the terms an allocation may carry, the balance in its parts, the grants of an
   * organization and the dashboard's Expiring soon: the console's own words (MESSAGES.grantPages).
   * What the server answers is in the domain's GRANT_MESSAGES.
   */
  grantPages: {
    list: {
      title: 'Credit grants',
      description: 'Credits with terms, in the order they are spent: highest priority first, then the soonest expiry, then the oldest.',
      loadFailed: 'Failed to load the credit grants',
      label: 'Credit grants',
      showAll: 'Show used-up and expired grants',
      empty: 'No credit grants: every credit here is open.',
      emptyAll: 'No credit grants yet.',
      amount: 'Amount',
      remaining: 'Remaining',
      agents: 'Agents',
      priority: 'Priority',
      expires: 'Expires',
      from: 'From',
      never: 'Never',
      expired: (at: string) => `Expired ${at}`,
      usedUp: 'Used up',
      spendableTitle: 'Spendable now',
      spendableLabel: 'Spendable now by agent type',
      spendableHint: 'What each agent type could spend now: its grants that have not expired, and the open credits.',
      noAgents: 'No agent is active here yet.',
      openRow: (amount: string) => `Open credits: ${amount}`,
    },
  },
});
