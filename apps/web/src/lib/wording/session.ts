/**
 * Signing in and out, the step-up dialog, second factors and the invitation toasts at sign-in: the words
 * several features, the shell or the shared components show.
 */
export const SESSION_WORDING = {
  auth: {
    signedOutTitle: 'Signed out',
    signedOutBody: 'You were signed out. Sign in to continue.',
    /** The toast of the tab that signed out, under signedOutTitle. */
    signedOutToast: 'You have been signed out successfully.',
    signOutErrorTitle: 'Error',
    signOutErrorBody: 'There was an error signing out.',
    accessDenied: 'Access Denied',
    pendingInvitationNotice:
      'You have a pending invitation. Sign in to accept it, or follow the link in your invitation e-mail to create an account.',
  },
  invitationToasts: {
    processing: 'Processing invitation...',
    accepted: 'Invitation accepted',
    failed: 'Failed to accept invitation',
  },
  welcome: {
    documentation: 'Documentation',
    getStarted: 'Get Started',
    noDocumentation: 'No documentation site is set up yet.',
    apiReference: 'API reference',
  },
  /** Buttons and links of the sign-in and password pages. */
  authPages: {
    changePassword: 'Change password',
  },
  /** Step-up: the dialog that asks a person to confirm it is them before money and secrets move. */
  stepUp: {
    title: 'Confirm it is you',
    factorDescription: 'This action moves money or secrets. Enter the 6-digit code from your authenticator app to continue.',
    recoveryDescription: 'Enter one of the recovery codes you saved when you set up your authenticator app. Each code works once.',
    passwordDescription: 'This action moves money or secrets. Enter your password to continue.',
    codeLabel: 'Code from your authenticator app',
    recoveryLabel: 'Recovery code',
    passwordLabel: 'Password',
    useRecoveryCode: 'Use a recovery code instead',
    useApp: 'Use the authenticator app instead',
    passkeyDescription: 'This action moves money or secrets. Confirm with one of your passkeys to continue.',
    usePasskey: 'Use a passkey',
    usePasskeyInstead: 'Use a passkey instead',
    // A session begun at the organization's identity provider confirms there.
    providerDescription:
      'This action moves money or secrets. Sign in at your identity provider again to confirm it is you. You come back to this page, to do the action again.',
    confirmWithProvider: 'Confirm with your identity provider',
    useProviderInstead: 'Use your identity provider instead',
    goingToProvider: 'Going to your identity provider…',
    providerConfirmed: 'Confirmed it is you',
    loading: 'Loading…',
    loadFailed: 'Could not tell how to confirm it is you. Close this and try again.',
    failed: 'Not confirmed',
    cancel: 'Cancel',
    submit: 'Confirm',
    submitting: 'Confirming…',
  },
  /** The Security page: the person's own second factors and sessions. */
  security: {
    title: 'Security',
    menuItem: 'Security',
    copyFailed: 'Could not copy: select the text and copy it yourself.',
  },
  // Require-a-second-factor policy.
  mfaPolicy: {
    leadWithin: (days: number, date: string) =>
      `Your organization requires a second factor. Set up an authenticator app within ${days} day${days === 1 ? '' : 's'} (by ${date}); after that you can only use the Security page.`,
    leadOverdue:
      'Your organization requires a second factor and your grace period has ended. Set up an authenticator app below to continue using the console.',
    setUpNow: 'Set up now',
    later: 'Remind me later',
  },
} as const;
