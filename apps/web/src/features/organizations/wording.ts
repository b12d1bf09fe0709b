// Relative, not through '@/': the e2e journeys read every feature's words from outside the app's alias.
import { withFeatureWords } from '../../lib/wording';

/** The words only the organizations feature shows, over the console's shared ones (`withFeatureWords`). */
export const MESSAGES = withFeatureWords({
  organizations: {
    failedToCreate: 'Failed to create organization',
    /** The confirmation before an organization is made suspended or inactive. */
    freezeTitle: (status: 'suspended' | 'inactive') => (status === 'suspended' ? 'Suspend organization' : 'Deactivate organization'),
    freezeConfirm: (name: string, status: 'suspended' | 'inactive') =>
      `${name} will be ${status}. Its people, and those of the organizations below it, can still sign in and look, but nothing they try to change is accepted and its API keys stop working, until it is active again.`,
    freezeAction: (status: 'suspended' | 'inactive') => (status === 'suspended' ? 'Suspend' : 'Deactivate'),
  },
  // Require-a-second-factor policy.
  mfaPolicy: {
    title: 'Second factor requirement',
    requireOwn: 'Require a second factor for our people',
    requireOwnHelp: 'Everyone in this organization must set up an authenticator app.',
    requireSubtree: 'Require it for every organization below',
    requireSubtreeHelp: 'The people of every organization under this one must too; they cannot turn it off.',
    requireAdmins: 'Require it for every admin in the tree',
    requireAdminsHelp: 'Every admin role, in every organization, must set up an authenticator app.',
    graceDaysLabel: 'Grace period (days)',
    graceHelp: 'How long a person without a factor may keep working, 0 to 14 days; the shortest grace that reaches a person applies.',
    save: 'Save policy',
    saved: 'Second-factor policy saved.',
    inheritedTitle: 'Set above this organization (locked)',
    inherited: (name: string, kind: 'subtree' | 'admins', days: number) =>
      `${name} requires a second factor for ${kind === 'subtree' ? 'everyone below it, this organization included' : 'every admin role in the tree'}, within ${days} day${days === 1 ? '' : 's'}.`,
    lockedOn: 'On: required by an organization above.',
    coverageTitle: 'Who is covered',
    coverageSummary: (covered: number, notEnrolled: number) =>
      covered === 0
        ? 'Nobody in this organization is required to have a second factor.'
        : `${covered} covered, ${notEnrolled} not set up yet.`,
    person: 'Person',
    state: 'Second factor',
    enrolled: 'Set up',
    dueBy: (date: string) => `Due by ${date}`,
    overdue: (date: string) => `Overdue since ${date}`,
    truncated: 'Only the first 200 people are listed.',
  },
});
