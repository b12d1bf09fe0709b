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
