// Relative, not through '@/': the e2e journeys read every feature's words from outside the app's alias.
import { withFeatureWords } from '../../lib/wording';

/** The words only the resources feature shows, over the console's shared ones (`withFeatureWords`). */
export const MESSAGES = withFeatureWords({
  organizations: {
    selectOrganization: 'Please select an organization to view the dashboard.',
  },
  /** Labels of the billing, settings and resources screens. */
  billingPages: {
    chooseChild: 'Choose the child organization that receives the credits.',
    loadResourcesFailed: 'Error loading resource information',
    resourcesSubtitle: (name: string) => `Agents, capacity and credits of ${name}`,
    tabOverview: 'Overview',
    tabAgents: 'Agents',
    tabCapacity: 'Capacity',
    activeAgents: 'Active Agents',
    quickLinks: 'Quick Links',
    linkLedger: 'Credit Ledger',
    linkBilling: 'Billing',
    linkTeam: 'Team',
    linkOrganizations: 'Organizations',
  },
  /** Labels of the agent catalog and of an organization's agents. */
  agentPages: {
    agentsTitle: 'Agents',
    agentsDescription: (organization: string) =>
      `Agents activated for ${organization}, as their runtimes last reported them, with their usage of the last 30 days.`,
    loadAgentsFailed: 'Error loading agents',
    noActivations: 'No agents are activated for this organization yet.',
    activate: 'Activate agent',
    activateTitle: 'Activate an agent',
    activateDescription: "Choose an agent of the catalog. Its usage is charged to this organization's credits.",
    activateButton: 'Activate',
    activating: 'Activating…',
    noTypesLeft: 'Every agent of the catalog is already activated for this organization.',
    activated: (name: string) => `${name} activated`,
    activateFailed: 'Failed to activate the agent',
    deactivate: 'Deactivate',
    deactivateTitle: (name: string) => `Deactivate ${name}?`,
    deactivateBody:
      'Its runtime can no longer report usage for this organization, and it stops counting against the agent limit. Usage already recorded stays in the ledger.',
    deactivated: (name: string) => `${name} deactivated`,
    deactivateFailed: 'Failed to deactivate the agent',
  },
  /** Monthly spend caps (per child subtree, activation and API key) and automatic top-ups. */
  spendPages: {
    setCap: 'Set cap',
    setCapAria: (name: string) => `Set the caps of ${name}`,
    activationCapTitle: (name: string) => `Caps of ${name}`,
    activationCapDescription:
      'What this agent may charge in a day, an ISO week (Monday to Sunday) and a calendar month, each in UTC. Usage that would pass any of them is refused. Leave a cap empty for none.',
    monthlyCapLabel: 'Monthly cap (credits)',
    weeklyCapLabel: 'Weekly cap (credits)',
    dailyCapLabel: 'Daily cap (credits)',
    capSaved: (name: string) => `Caps of ${name} saved`,
    capSaveFailed: 'Failed to save the caps',
  },
});
