// Relative, not through '@/': the e2e journeys read every feature's words from outside the app's alias.
import { withFeatureWords } from '../../lib/wording';

/** The words only the agents feature shows, over the console's shared ones (`withFeatureWords`). */
export const MESSAGES = withFeatureWords({
  /** Labels of the agent catalog and of an organization's agents. */
  agentPages: {
    catalogSubtitle: 'The agent types organizations can activate, with the unit they are metered in and the price per unit.',
    catalogEmpty: 'The catalog is empty. Add the first agent type.',
    newType: 'New agent type',
    editType: 'Edit',
    editTitle: (name: string) => `Edit ${name}`,
    code: 'Code',
    codeHint: 'Runtimes report usage with this code. It cannot be changed later.',
    name: 'Name',
    description: 'Description (optional)',
    kind: 'Kind',
    unit: 'Unit',
    unitHint: 'What one unit is, as a person reads it: "run", "1k tokens", "minute".',
    price: 'Price per unit (credits)',
    priceHint: 'At most 4 decimal places.',
    priceChangeNote:
      'A new price applies to usage that occurs after you save. Events that occurred earlier keep the price that was in force when they occurred.',
    create: 'Create',
    created: (name: string) => `${name} added to the catalog`,
    updated: (name: string) => `${name} updated`,
    saveFailed: 'Failed to save the agent type',
    retire: 'Retire',
    retireTitle: (name: string) => `Retire ${name}?`,
    retireBody:
      'No organization can activate it any more. Organizations that run it keep it until they deactivate it, and their usage is still charged. This cannot be undone.',
    retired: (name: string) => `${name} retired`,
    retireFailed: 'Failed to retire the agent type',
    statusActive: 'Active',
    statusRetired: 'Retired',
    pricePerUnit: (price: string, unit: string) => `${price} credits per ${unit}`,
  },
});
