/** Spec wording, kept in one place so both the server and the console say the same thing. */
export const MESSAGES = {
  auth: {
    signInFailed: 'Failed to sign in',
    signOutFailed: 'Failed to sign out.',
    loginSuccessful: 'Login successful',
    signedOutTitle: 'Signed out',
    signedOutBody: 'You have been signed out successfully.',
    signOutErrorTitle: 'Error',
    signOutErrorBody: 'There was an error signing out.',
    invalidCredentials: 'Invalid email or password. Please check your credentials and try again.',
    noAccountNote: "Don't have an account? Contact your administrator for an invitation.",
    resetSentTitle: 'Reset email sent',
    resetSent:
      "If an account exists with the email you entered, we've sent a password reset link. Please check your email.",
    invalidResetLink: 'Invalid or expired password reset link. Please request a new one.',
    passwordsDoNotMatch: 'Passwords do not match',
    passwordTooShort: 'Password must be at least 8 characters long',
    passwordUpdatedTitle: 'Password updated',
    passwordUpdated: 'Your password has been updated. Please sign in with your new password.',
    authenticationRequired: 'Authentication Required',
    accessDenied: 'Access Denied',
    userNotAuthenticated: 'User is not authenticated.',
    userRecordNotFound: 'User record not found',
    userHasNoOrganization: 'User has no organization',
    sessionExpired: 'Your session has expired. Please sign in again.',
    accountInactive: 'This account is not active. Contact your administrator.',
    tooManyAttempts: 'Too many attempts. Please wait a moment and try again.',
    emailRequired: 'Email is required',
    passwordRequired: 'Password is required',
    invalidEmail: 'Please enter a valid email address.',
    pendingInvitationNotice:
      'You have a pending invitation. Sign in to accept it, or follow the link in your invitation e-mail to create an account.',
  },
  /** Login error classes of spec 1 section 8. */
  loginErrors: {
    network: {
      title: 'Connection Error',
      message: 'Network connection issue. Please check your internet connection and try again.',
      troubleshooting: 'Check your internet connection, then try again in a few moments.',
    },
    jwt: {
      title: 'Authentication Token Error',
      message:
        'Authentication token issue. This may be due to recent system updates. Please try again or contact support if the problem persists.',
      troubleshooting: 'Clear your browser cache and cookies for this site, then sign in again.',
      systemUpdateNotice:
        'System Update Notice: we recently updated our authentication system. If the problem persists, contact support.',
    },
    auth: {
      title: 'Login Failed',
      message: 'Invalid email or password. Please check your credentials and try again.',
      troubleshooting:
        'Make sure your email is correct and Caps Lock is off, or use Forgot password to reset it.',
    },
    unknown: {
      title: 'Error',
      message: 'An unexpected error occurred. Please try again.',
      troubleshooting: 'Try again. If the problem continues, contact your administrator.',
    },
  },
  invitationToasts: {
    processing: 'Processing invitation...',
    pending: 'Invitation pending',
    accepted: 'Invitation accepted',
    failed: 'Failed to accept invitation',
  },
  organizations: {
    nameMin: 'Organization name must be at least 2 characters.',
    nameMax: 'Organization name must be at most 100 characters.',
    selectType: 'Please select an organization type.',
    selectStatus: 'Please select a status',
    cannotCreateChildren: (type: string) =>
      `Your organization type (${type}) cannot create child organizations.`,
    onlyOwnOrDirectChild:
      'You can only update your own organization or direct child organizations.',
    notFound: 'Organization not found',
    permissionDenied: 'Permission Denied',
    failedToLoad: 'Failed to load organizations',
    failedToLoadDetails: 'Failed to load organization details',
    failedToCreate: 'Failed to create organization',
    selectOrganization: 'Please select an organization to view the dashboard.',
    wrongChildType: (parentType: string, childType: string) =>
      `A ${parentType} can only create organizations of type ${childType}.`,
    deleteOnlyParentAdmins: 'Only administrators of the parent organization can delete an organization.',
    deleteHasChildren: 'This organization still has child organizations. Delete them first.',
    deleteHasActiveUsers: 'This organization still has active users. Deactivate them first.',
    deleteHasBalance: 'This organization still holds credits. Its balance must be zero before it is deleted.',
    debugOnly: 'Only house, super agency and agency administrators can use the debug tools.',
  },
  users: {
    invalidEmail: 'Please enter a valid email address.',
    firstNameMin: 'First name must be at least 2 characters.',
    lastNameMin: 'Last name must be at least 2 characters.',
    selectRole: 'Please select a role.',
    noRolesAvailable: 'No roles available',
    roleNotForOrgType: (role: string, type: string) => `The role ${role} does not exist in an organization of type ${type}.`,
    roleAboveOwn: 'You cannot give a role above your own.',
    cannotChangeOwnRole: 'You cannot change your own role.',
    cannotDeactivateSelf: 'You cannot deactivate yourself.',
    lastAdmin: 'This is the last active administrator of the organization. Make someone else an administrator first.',
    onlyOwnOrDirectChild: 'You can only manage users of your own organization or of its direct child organizations.',
    onlySelf: 'You can only edit your own profile.',
    notFound: 'User record not found',
    deactivateConfirm: (name: string) =>
      `Are you sure you want to deactivate ${name}? This will prevent them from accessing the system.`,
    deactivated: 'User deactivated',
    deactivateFailed: 'Failed to deactivate user',
    emptyState: 'No users or pending invitations found. Try adjusting your filters.',
    loadFailed: 'Failed to load users and invitations',
  },
  invitations: {
    parentInvitesDisabled: 'This organization does not accept invitations from its parent organization.',
    accountExists: 'An account with this email already exists.',
    alreadyPending: 'A pending invitation for this email already exists in this organization.',
    invalidLink: 'Invalid invitation link.',
    expired: 'This invitation has expired. Ask your administrator for a new one.',
    revoked: 'This invitation was revoked. Ask your administrator for a new one.',
    used: 'This invitation has already been accepted.',
    otherAccount: 'This invitation was sent to another email address. Sign out and sign in with the invited account.',
    missingData: 'Missing invitation data',
    revokeConfirm: (email: string) => `Are you sure you want to revoke the invitation for ${email}?`,
    revokeWarning: 'This action cannot be undone.',
    revokedToast: 'Invitation revoked',
    revokeFailed: 'Failed to revoke invitation',
    resent: 'Invitation resent',
    resendFailed: 'Failed to resend invitation',
    linkCopied: 'Invitation link copied',
    empty: 'No pending invitations.',
    inviteFailed: 'Failed to invite user',
    noOrganization: 'No organization ID found. Cannot proceed with invitation.',
  },
  credits: {
    amountPositive: 'Amount must be greater than zero',
    amountInvalid: 'Please enter a valid amount',
    amountNotNumber: 'Amount must be a number',
    selectChild: 'Please select a child organization',
    notDirectChild: 'The selected organization is not a direct child of your current organization.',
    insufficient: (balance: string) => `Insufficient credits: the balance is ${balance} credits.`,
    onlyOwnOrganization: 'Credits can only be allocated from your own organization.',
    adjustOnlyHouse: 'Only house administrators adjust the balance of their own house.',
    idempotencyConflict: 'This Idempotency-Key was already used for a different request.',
    loadFailed: 'Failed to load credit ledger entries',
    allocateFailed: (message: string) => `Failed to allocate credits: ${message}`,
    emptyTitle: 'No transactions found',
    emptyBody: 'Transactions will appear here when credits are allocated or consumed.',
    panelTitle: 'Credit Ledger',
    panelSubtitle: 'Transaction history for your organization',
    lowBalance: 'Your credit balance is low.',
    invalidCursor: 'The page cursor is not valid.',
  },
  generic: {
    unknown: 'An unknown error occurred',
    unexpected: 'An unexpected error occurred',
    notFound: 'Not found',
    forbidden: 'You do not have permission to do this.',
    invalidRequest: 'The request is not valid.',
    internal: 'Something went wrong on our side. Please try again.',
  },
  /** Labels of the application shell (spec 1 section 2). */
  shell: {
    menuTitle: 'Menu',
    menuDescription: 'Navigate through the application',
    nav: {
      dashboard: 'Dashboard',
      organizations: 'Organizations',
      team: 'Team',
      resources: 'Resources',
      creditLedger: 'Credit Ledger',
      settings: 'Settings',
    },
    profileFallback: 'Profile',
    avatarFallback: 'AV',
    settings: 'Settings',
    settingsShortcut: '⌘S',
    debug: 'Debug',
    logOut: 'Log out',
    logOutShortcut: '⇧⌘Q',
    darkMode: 'Dark mode',
    lightMode: 'Light mode',
    debugTitle: 'Debug tools',
    errorTitle: 'Error',
  },
  welcome: {
    documentation: 'Documentation',
    getStarted: 'Get Started',
  },
  /** Buttons and links of the sign-in and password pages (spec 1 section 2). */
  authPages: {
    forgotPassword: 'Forgot password?',
    sendResetLink: 'Send Reset Link',
    backToLogin: 'Back to login',
    newPassword: 'New password',
    confirmPassword: 'Confirm password',
    invalidLinkTitle: 'Invalid Link',
    requestNewResetLink: 'Request New Reset Link',
  },
} as const;

export type LoginErrorClass = keyof typeof MESSAGES.loginErrors;

/** Classifies a sign-in failure by keywords in its message (spec 1 section 8). */
export function classifyLoginError(message: string): LoginErrorClass {
  const text = message.toLowerCase();
  if (['network', 'fetch', 'connection', 'timeout'].some((k) => text.includes(k))) return 'network';
  if (['jwt', 'token', 'claim'].some((k) => text.includes(k))) return 'jwt';
  if (['invalid', 'password', 'email', 'credentials'].some((k) => text.includes(k))) return 'auth';
  return 'unknown';
}
