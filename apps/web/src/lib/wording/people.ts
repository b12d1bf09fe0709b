/**
 * Organizations, people and invitations: the words several features or the shared components show.
 */
export const PEOPLE_WORDING = {
  organizations: {
    permissionDenied: 'Permission Denied',
    failedToLoad: 'Failed to load organizations',
    failedToLoadDetails: 'Failed to load organization details',
  },
  users: {
    loadFailed: 'Failed to load users and invitations',
  },
  invitations: {
    confirmTitle: 'Join another organization?',
    confirmMove: (fromOrganization: string, fromRole: string, toOrganization: string, toRole: string) =>
      `You will leave ${fromOrganization} (${fromRole}) and join ${toOrganization} as ${toRole}.`,
    /** What leaving means, said before the person chooses. */
    confirmConsequence: (fromOrganization: string) =>
      `You will no longer see or change anything of ${fromOrganization} or the organizations below it. To return, someone there must invite you again.`,
    join: 'Join',
    cancel: 'Cancel',
    declined: (organization: string) => `You stay in ${organization}. The invitation is still open until it expires.`,
  },
  /** Labels of the team, users and invitation screens. */
  teamPages: {
    inviteUser: 'Invite User',
    viewAll: 'View All',
    teamCardTitle: 'Team Members',
    noMembers: 'No team members yet.',
    pendingInvitations: (count: number) => `${count.toLocaleString('en-US')} pending ${count === 1 ? 'invitation' : 'invitations'}`,
    acceptSuccessTitle: 'Invitation accepted',
  },
} as const;
