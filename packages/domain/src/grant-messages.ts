import { formatAmount } from './format-amount.ts';

/** The words of credit grants: terms on allocations and adjustments, their expiry and warnings. */
export const GRANT_MESSAGES = {
  expiryInPast: 'Choose an expiry in the future.',
  expiryTooFar: 'An expiry can be at most ten years ahead.',
  unknownAgentType: (code: string) => `No agent type has the code "${code}".`,
  agentTypesDistinct: 'List each agent type once.',
  agentTypesEmpty: 'Choose at least one agent type, or every agent.',
  priorityRange: 'Give a priority from 0 to 100.',
  expiryDays: 'Give the days until expiry as a whole number from 1 to 3650.',
  termsOnDecrease: 'Only credits that are added can carry terms.',
  /** The reason a debit is refused when only grants it may not draw hold the credits. */
  notSpendable: (spendable: string) =>
    `Not enough credits that can be moved: ${formatAmount(spendable)} credits are neither limited to some agents nor expired.`,
  everyAgent: 'Every agent',
  open: 'Open credits',
  expiresOn: (at: string) => `Expires ${at}`,
  expiringMailSubject: (amount: string, days: number) =>
    `${formatAmount(amount)} credits expire in ${days === 1 ? '1 day' : `${days} days`}`,
  expiringMailBody: (organization: string, amount: string, at: string, grantor: string) =>
    `${formatAmount(amount)} credits of ${organization} expire at ${at}. What is left then goes back to ${grantor}.`,
} as const;
