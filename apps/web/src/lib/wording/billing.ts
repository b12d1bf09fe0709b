import { GRANT_MESSAGES, type OrgType } from '@console/domain';

/**
 * Credits, billing, agents, alert lines, grants and invoices: the words several features or the shared
 * components (`components/billing`, `components/credits`, ...) show.
 */
export const BILLING_WORDING = {
  /** Labels of the credit ledger, allocation and recent-transactions screens. */
  creditPages: {
    loadMore: 'Load more',
    /** Reversing an allocation from the sender's ledger. */
    reverse: 'Reverse',
    reverseLabel: (amount: string, child: string) => `Reverse the allocation of ${amount} credits to ${child}`,
    reverseTitle: 'Reverse the allocation',
    reverseSummary: (amount: string, child: string, parent: string) =>
      `Move ${amount} credits back from ${child} to ${parent}. ${child} must still hold them; both ledgers keep the allocation beside its reversal.`,
    confirmReversal: 'Reverse allocation',
    reverseFailed: (message: string) => `Failed to reverse the allocation: ${message}`,
    noActiveChildren: 'Your organization has no active child organizations to allocate credits to.',
    recentTitle: 'Recent Credit Transactions',
    viewFullLedger: 'View Full Ledger',
  },
  billing: {
    updated: 'Agent limit updated successfully',
    newLimit: (limit: number) => `New limit: ${limit}`,
  },
  /** Labels of the billing, settings and resources screens. */
  billingPages: {
    tabAgentLimits: 'Agent Limits',
    agentLimitStatus: 'Agent Limit Status',
    agentsUsed: (active: number, limit: number) => `${active} / ${limit} agents`,
    usagePercent: (percent: number) => `${percent}% of the limit in use`,
    badgeGood: 'Good',
    badgeWarning: 'Warning',
    badgeCritical: 'Critical',
    adviceGood: 'Your agent usage is within normal range.',
    adviceWarning: "You're approaching your agent limit. Consider managing your active agents.",
    adviceCritical: "You're about to reach your agent limit. Consider upgrading.",
    aboutAgentLimits: 'About Agent Limits',
    aboutAgentLimitsBody:
      'The activated agent limit is how many agents this organization may have active at once. A parent organization shares its own limit among its child organizations.',
    aboutTenantLimit: "A tenant's agent limit is set by its parent organization.",
    adjustLimit: 'Adjust Limit',
    /** Beside the limit when the viewer may not change it: who may. */
    limitSetBy: (orgType: OrgType) =>
      orgType === 'house' ? "The house's admins set this limit." : 'This limit is set by the admins of the parent organization.',
    adjustTitle: 'Adjust Agent Limit',
    adjustDescription: (min: number, max: number | null) =>
      max === null
        ? `The limit cannot be lower than ${min}: the agents active now and what the child organizations hold.`
        : `Allowed range: ${min} to ${max} (not below the agents active now or what the child organizations hold, and within the parent organization's capacity left for this organization).`,
    currentLimit: 'Current limit',
    newLimitLabel: 'New limit',
    updateLimit: 'Update Limit',
    updating: 'Updating…',
    cancel: 'Cancel',
    noAgentsRecorded: 'No agents are recorded for this organization yet.',
    childrenLimitTotal: 'Held by child organizations',
    capacityLeft: 'Capacity left',
    capacityUsed: 'Capacity used by child organizations',
    capacityShare: (percent: number) => `${percent}% of the limit`,
    noChildren: 'This organization has no child organizations.',
    moreChildren: (count: number) => `Only the first ${count} child organizations are listed.`,
    creditBalance: 'Credit Balance',
    allocateCredits: 'Allocate Credits',
    allocateHint: 'Move credits from your organization to an active direct child organization.',
    continueToAllocation: 'Continue',
    viewBilling: 'Billing',
    back: 'Back',
    loadCapacityFailed: 'Error loading capacity data',
    settingsTitle: 'Settings',
    yourProfile: 'Your Profile',
    resourcesTitle: 'Resources',
    activatedAgentLimit: 'Activated Agent Limit',
    childOrganizations: 'Child Organizations',
  },
  /** Labels of the agent catalog and of an organization's agents. */
  agentPages: {
    catalogTitle: 'Agent Catalog',
    loadCatalogFailed: 'Failed to load the agent catalog',
    save: 'Save',
    saving: 'Saving…',
    cancel: 'Cancel',
    never: 'Never',
    notReported: 'Not reported',
    healthLabel: (score: number) => `Health ${score} of 100`,
  },
  /** Labels of the low-balance alert threshold. */
  thresholdPages: {
    title: 'Low-balance alert',
    body: (threshold: string) => `The administrators are e-mailed when the balance falls below ${threshold}.`,
    below: (threshold: string) => `The balance is below the alert threshold of ${threshold}.`,
    change: 'Change threshold',
    dialogTitle: 'Low-balance alert threshold',
    dialogDescription:
      "When the balance falls below this amount, the organization's administrators get one e-mail; the next one comes only after the balance has been back at or above it.",
    label: 'Threshold (credits)',
    saved: 'Threshold saved',
    saveFailed: 'Failed to save the threshold',
  },
  /** Monthly spend caps (per child subtree, activation and API key) and automatic top-ups. */
  spendPages: {
    capUsedPercent: (percent: number) => `${percent}% of the monthly cap used`,
    noCap: 'No cap',
    save: 'Save',
    saving: 'Saving…',
    /** A key's or an activation's cap, compactly. */
    capUsed: (charged: string, cap: string) => `${charged} of ${cap} this month`,
    /** A day or week cap beside the month's, compactly. */
    windowCapUsed: (window: 'day' | 'week', charged: string, cap: string) =>
      `${charged} of ${cap} ${window === 'day' ? 'today' : 'this week'}`,
    /** A child stopped by its subtree caps (`CapStanding`), as its billing card says it. */
    capReachedRefusing: (refused: number) => `Cap reached: new usage is refused (${eventsThisMonth(refused)})`,
    /** The same on a list's row, beside the "Cap reached" marker. */
    capRefusedThisMonth: (refused: number) => `${refused.toLocaleString('en-US')} refused this month`,
    /** Refusals this month at a cap that no longer stops the child (raised, or its day or week has ended). */
    capRefusedEarlier: (refused: number) =>
      `${refused.toLocaleString('en-US')} ${refused === 1 ? 'event was' : 'events were'} refused at a spend cap this month; the caps let usage through now.`,
  },
  /**
   * Billing details, invoices, payments, receivables and statements: the console's own words
   * (MESSAGES.invoicePages). What the server answers is in the domain's MESSAGES.invoices.
   */
  invoicePages: {
    title: 'Invoices',
    // Billing details.
    details: {
      title: 'Billing details',
      subtitle: (organization: string) => `What ${organization} prints on the invoices it issues to its children.`,
      settingsBody: 'Legal name, address, currency, price per credit, tax and payment terms printed on your invoices.',
      settingsLink: 'Billing details',
      appliesTo: 'Changes apply to invoices not yet issued. Issued invoices never change.',
      loadFailed: 'Failed to load the billing details',
      readOnly: 'Only the organization’s admins change its billing details.',
      frozenReadOnly: 'This organization is frozen: its billing details can be read but not changed.',
      notSet: 'No billing details yet: no invoice is issued until an admin sets them.',
      legalName: 'Legal name',
      address: 'Address',
      addressHint: 'As printed on invoices; use several lines.',
      taxId: 'Tax id',
      taxIdHint: 'Optional: a VAT number or other tax registration.',
      currency: 'Currency',
      currencyHint: 'A three-letter ISO 4217 code, such as USD or EUR.',
      creditPrice: 'Price per credit',
      creditPriceHint: 'What one credit costs in your currency, up to 4 decimals.',
      taxRate: 'Tax rate (%)',
      taxRateHint: '0 to 100; 0 when you charge no tax.',
      taxLabel: 'Tax label',
      taxLabelHint: 'Printed beside the tax, such as VAT or Sales tax.',
      termsDays: 'Payment terms (days)',
      termsDaysHint: 'Days from the invoice date to its due date.',
      numberPrefix: 'Invoice number prefix',
      numberPrefixHint: 'Up to 12 letters, digits or dashes.',
      nextNumber: (number: string) => `Next invoice number: ${number}`,
      note: 'Note',
      noteHint: 'Optional: printed at the bottom of every invoice.',
      none: 'None',
      save: 'Save billing details',
      saving: 'Saving…',
      saved: 'Billing details saved',
      saveFailed: 'The billing details were not saved',
      updatedAt: (at: string) => `Last changed on ${at}`,
    },
    // Statements.
    statements: {
      title: 'Statements',
      link: 'Statements',
      subtitle: (organization: string) => `${organization}'s monthly statement: every movement of its ledger in the month, grouped.`,
      subtitleOwn: 'Your monthly statement: every movement of your ledger in the month, grouped.',
      organization: 'Organization',
      month: 'Month',
      loadFailed: 'Failed to load the statement',
      partial: 'This month has not ended: the statement runs to now and will grow.',
      doesNotClose:
        'This statement does not close: its movements do not add up to the change of its balance, so the ledger was changed outside its writer. Ask the house to run a reconciliation.',
      opening: 'Opening balance',
      closing: 'Closing balance',
      creditsIn: 'Credits in',
      creditsOut: 'Credits out',
      entries: (count: number) => (count === 1 ? '1 entry' : `${count} entries`),
      groupsTitle: 'Movements',
      groupsLabel: 'Movements of the month',
      groupsEmpty: 'No movement this month.',
      columns: {
        kind: 'Movement',
        party: 'Counterparty or agent',
        units: 'Units',
        unitPrice: 'Unit price',
        entries: 'Entries',
        amount: 'Amount',
      },
      codeTitle: 'Verification code',
      codeBody: 'The ledger’s chain head at the end of the month. Keep it: it proves later that these entries were not changed.',
      codeNone: 'None: the ledger held no entry by the end of this month.',
      copy: 'Copy',
      copyCode: 'Copy verification code',
      copied: 'Copied',
      copyFailed: 'Could not copy: select the code and copy it by hand.',
      downloadCsv: 'Download CSV',
      downloadPdf: 'Download PDF',
      downloadJson: 'Download JSON',
      downloaded: 'Statement downloaded',
      downloadFailed: 'The statement could not be downloaded',
      verifyTitle: 'Verify a statement',
      verifyBody: (month: string) =>
        `Paste the verification code of a statement of ${month} to check it against the ledger as it is today.`,
      verifyLabel: 'Code to verify',
      verify: 'Verify',
      verifying: 'Verifying…',
      verifyFailed: 'The code could not be checked',
      matches: (checked: number) => `The code matches: the ledger still holds these entries as they were (${checked} checked).`,
      noMatch: 'The code does not match the ledger’s chain head at the end of this month.',
      wholeButOther: 'The ledger’s chain is whole: this code belongs to another month, organization or an older statement.',
      broken: (seq: string | null, id: string | null, reason: string) =>
        `The chain is broken: entry ${seq ? `#${seq}` : ''}${seq && id ? ' ' : ''}${id ? `(${id})` : ''} ${reason}.`,
      headNow: (head: string) => `The head the ledger holds now: ${head}`,
    },
  },
  /**
   * An organization's alert lines: the console's own words (MESSAGES.alertLinePages). What the
   * server answers, and each line's sentence, come from the domain (MESSAGES.alertLines).
   */
  alertLinePages: {
    title: 'Alert lines',
    description:
      "The organization's admins are e-mailed, and a webhook event is sent, once each time a line is crossed; a line alerts again after its value comes back.",
    loadFailed: 'Failed to load the alert lines',
    none: 'No alert lines: nobody is alerted about this organization’s credits.',
    add: 'Add line',
    addTitle: 'Add an alert line',
    edit: 'Edit',
    editAria: (line: string) => `Edit: ${line}`,
    editTitle: 'Edit the alert line',
    formDescription: 'Setting or moving a line alerts nobody: only a later crossing does.',
    delete: 'Delete',
    deleteAria: (line: string) => `Delete: ${line}`,
    deleteTitle: 'Delete this alert line?',
    deleteBody: (line: string) => `${line}. Nobody is alerted about it any more.`,
    deleteThreshold: 'This is the low-balance threshold: deleting it sets the threshold to 0.',
    deleting: 'Deleting…',
    deleted: 'Alert line deleted',
    saved: 'Alert line saved',
    saving: 'Saving…',
    save: 'Save',
    saveFailed: 'The alert line could not be saved',
    deleteFailed: 'The alert line could not be deleted',
    kindLabel: 'Alert on',
    kinds: { balance: 'The balance', cap_percent: 'A percent of the spend cap', runway_days: 'Days of runway' },
    boundLabel: { balance: 'Below (credits)', cap_percent: 'At or above (percent)', runway_days: 'Fewer than (days)' },
    windowLabel: 'Cap window',
    windows: { day: 'Day', week: 'Week', month: 'Month' },
    threshold: 'Low-balance threshold',
    crossed: 'Crossed',
    armed: 'Armed',
    now: (value: string) => `Now: ${value}`,
    limit: (max: number) => `At most ${max} lines.`,
  },
  /**
   * Credit grants: the terms an allocation may carry, the balance in its parts, the grants of an
   * organization and the dashboard's Expiring soon: the console's own words (MESSAGES.grantPages).
   * What the server answers is in the domain's GRANT_MESSAGES.
   */
  grantPages: {
    terms: {
      add: 'Add terms: expiry, agents, priority',
      title: 'Terms',
      description: 'Credits with terms are a grant: they can expire, be limited to some agents, and be spent before others.',
      remove: 'Remove terms',
      expiresAt: 'Expires at',
      expiresHint: 'Your local time. Leave empty: the credits never expire. At the expiry, what is left comes back to you.',
      agents: 'Agents',
      everyAgent: GRANT_MESSAGES.everyAgent,
      someAgents: 'Only these agents',
      agentsLabel: 'Agent types the credits are for',
      catalogFailed: 'Failed to load the agent types',
      noAgentTypes: 'The catalog has no agent type yet.',
      priority: 'Priority',
      priorityHint: 'From 0 to 100: credits of a higher priority are spent first. Empty: 0.',
      priorityInvalid: GRANT_MESSAGES.priorityRange,
      /** The review step's line about the terms. */
      review: (parts: string[]) => `Terms: ${parts.join('; ')}.`,
      reviewExpires: (at: string) => `expire ${at}`,
      reviewAgents: (names: string) => `only for ${names}`,
      reviewPriority: (priority: number) => `priority ${priority}`,
    },
    parts: {
      label: 'Balance in parts',
      open: GRANT_MESSAGES.open,
      openHint: 'Credits without terms: every agent may spend them, and they never expire.',
      soonestExpiry: (amount: string, date: string) => `${amount} credits expire on ${date}`,
    },
    expiring: {
      title: 'Expiring soon',
      description: (days: number) => `Credit grants in your organizations that expire within ${days} days.`,
      loadFailed: 'Failed to load the grants expiring soon',
      label: 'Grants expiring soon',
      empty: (days: number) => `No credits expire in the next ${days} days.`,
      organization: 'Organization',
      left: 'Left',
      agents: 'Agents',
      expiresIn: 'Expires in',
      inHours: (hours: number) => (hours <= 1 ? 'less than an hour' : `${hours} hours`),
      inDays: (days: number) => (days === 1 ? '1 day' : `${days} days`),
    },
  },
} as const;

/** "1 event this month", "1,234 events this month". */
function eventsThisMonth(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'event' : 'events'} this month`;
}
