// Relative, not through '@/': the e2e journeys read every feature's words from outside the app's alias.
import { withFeatureWords } from '../../lib/wording';

/** The words only the credits feature shows, over the console's shared ones (`withFeatureWords`). */
export const MESSAGES = withFeatureWords({
  /** Labels of the credit ledger, allocation and recent-transactions screens. */
  creditPages: {
    exportTransactions: 'Export Transactions',
    allocateCredits: 'Allocate Credits',
    exportFailed: 'Failed to export transactions',
    exported: 'Transactions exported',
    exportEvents: 'Export Usage Events',
    eventsExported: 'Usage events exported',
    eventsExportFailed: 'Failed to export the usage events',
    /** The stored events behind one consumption entry. */
    entryEvents: 'Events',
    entryEventsTitle: 'Usage events of this charge',
    entryEventsDescription: (description: string) => `${description}. Each event as its agent reported it, newest first.`,
    entryEventsEmpty: 'No stored events of this entry match.',
    entryEventsFrom: 'Occurred from',
    entryEventsTo: 'Occurred to',
    entryEventsFailed: 'Failed to load the usage events',
    /** An event's units in the agent's unit, and the price per unit in credits when the viewer may see it. */
    entryEventUnits: (units: string, unit: string, price: string | null) =>
      `${units} ${unit}${price === null ? '' : ` at ${price} credits per ${unit}`}`,
    creditBalance: 'Credit Balance',
    adjustBalance: 'Adjust balance',
    adjustDescription: 'Add credits to your house or remove them. Every adjustment is recorded in the ledger with its reason.',
    adjusted: 'Balance adjusted',
    adjustFailed: (message: string) => `Failed to adjust the balance: ${message}`,
    reversed: 'Reversed',
    allocateDescription:
      'Move credits from your organization to an active direct child organization. Within 24 hours, while the child still holds them, the allocation can be reversed from the ledger.',
    allocatedTitle: 'Credits allocated',
    /** The review step between the form and the allocation. */
    reviewTitle: 'Review the allocation',
    reviewSummary: (amount: string, from: string, to: string, keeps: string) =>
      `Move ${amount} credits from ${from} to ${to}; ${from} keeps ${keeps}.`,
    reviewOverdrawn: (from: string, balance: string) => `${from} has only ${balance} credits: go back and lower the amount.`,
    confirmAllocation: 'Confirm',
    backToEdit: 'Back to edit',
    /** A direct child named in the URL that cannot receive credits now. */
    childNotActive: (name: string, status: string) =>
      `${name} is ${status}: credits go only to active child organizations, so it is not offered below.`,
    /** The ledger of an organization other than the viewer's own. */
    historyOf: (name: string | null) => `Transaction history of ${name ?? 'the selected organization'}`,
    /** Seen from above (the margins rule): what the server withholds of another organization's ledger, in one line. */
    pricesWithheld: (name: string) =>
      `${name}'s prices per unit are between it and its seller, and how its earnings were made is its own: shown here are what it spent and used, and what its earnings came to.`,
    earningsWithheld: (name: string) => `How ${name}'s earnings were made is its own: shown here is what they came to.`,
    entriesOf: (name: string | null) => `The credit entries of ${name ?? 'the selected organization'}.`,
    /** The button that shows the ledger's filters on a narrow screen, with how many are set. */
    filters: 'Filters',
    filtersOn: (count: number) => `(${count} on)`,
  },
});
