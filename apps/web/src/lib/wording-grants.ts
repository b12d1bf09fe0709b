import { GRANT_MESSAGES } from '@console/domain';

/**
 * Credit grants: the terms an allocation may carry, the balance in its parts, the grants of an
 * organization and the dashboard's Expiring soon: the console's own words (MESSAGES.grantPages).
 * What the server answers is in the domain's GRANT_MESSAGES.
 */
export const GRANT_WORDING = {
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
} as const;
