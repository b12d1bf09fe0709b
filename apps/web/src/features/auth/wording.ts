// Relative, not through '@/': the e2e journeys read every feature's words from outside the app's alias.
import { withFeatureWords } from '../../lib/wording';

/** The words only the auth feature shows, over the console's shared ones (`withFeatureWords`). */
export const MESSAGES = withFeatureWords({
  auth: {
    signInFailed: 'Failed to sign in',
    signOutFailed: 'Failed to sign out.',
    loginSuccessful: 'Login successful',
    sessionExpiredTitle: 'Session expired',
    sessionExpiredBody: 'Your session expired. Sign in again to continue where you were.',
    noAccountNote: "Don't have an account? Contact your administrator for an invitation.",
    resetSentTitle: 'Reset email sent',
    passwordUpdatedTitle: 'Password updated',
    passwordUpdated: 'Your password has been updated. Please sign in with your new password.',
    authenticationRequired: 'Authentication Required',
    userRecordNotFound: 'User record not found',
    userHasNoOrganization: 'User has no organization',
    /** The sign-in's second step, after a right password for a person with an authenticator app. */
    secondStepTitle: 'Two-step verification',
    totpPrompt: 'Enter the 6-digit code from your authenticator app.',
    recoveryPrompt: 'Enter one of the recovery codes you saved when you set up your authenticator app. Each code works once.',
    totpLabel: 'Authentication code',
    recoveryLabel: 'Recovery code',
    useRecoveryCode: 'Use a recovery code instead',
    useTotp: 'Use your authenticator app instead',
    verify: 'Verify',
    verifying: 'Verifying…',
    backToPassword: 'Back to email and password',
    secondStepFailed: 'Verification failed',
    // Passkeys
    continueWithPasskey: 'Continue with a passkey',
    usePasskey: 'Use a passkey',
    passkeyPrompt: 'Use one of your passkeys to finish signing in.',
    passkeyFailed: 'Passkey sign-in failed',
    or: 'or',
    // E-mail first: the e-mail decides between the organization's provider and the password.
    continue: 'Continue',
    checkingEmail: 'Checking…',
    continuingTo: (organization: string) => `Continuing to ${organization}'s sign-in…`,
    changeEmail: 'Use another e-mail',
    // Skips the look-up: a break-glass admin, or a person of another organization whose address is at a claimed domain.
    signInWithPassword: 'Sign in with a password',
    ssoFailedTitle: 'Single sign-on did not complete',
    passwordDisabledTitle: 'Sign in through your organization',
  },
  /** Login error classes: what the sign-in page says for each kind of failure. */
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
      systemUpdateNotice: 'System Update Notice: we recently updated our authentication system. If the problem persists, contact support.',
    },
    auth: {
      title: 'Login Failed',
      message: 'Invalid email or password. Please check your credentials and try again.',
      troubleshooting: 'Make sure your email is correct and Caps Lock is off, or use Forgot password to reset it.',
    },
    unknown: {
      title: 'Error',
      message: 'An unexpected error occurred. Please try again.',
      troubleshooting: 'Try again. If the problem continues, contact your administrator.',
    },
  },
  invitationToasts: {
    pending: 'Invitation pending',
  },
  welcome: {
    currentTheme: (theme: string) => `Current theme: ${theme}`,
  },
  /** Buttons and links of the sign-in and password pages. */
  authPages: {
    forgotPassword: 'Forgot password?',
    sendResetLink: 'Send Reset Link',
    backToLogin: 'Back to login',
    newPassword: 'New password',
    currentPassword: 'Current password',
    confirmPassword: 'Confirm password',
    invalidLinkTitle: 'Invalid Link',
    requestNewResetLink: 'Request New Reset Link',
  },
});

export type LoginErrorClass = keyof typeof MESSAGES.loginErrors;

/** Classifies a sign-in failure by keywords in its message. */
export function classifyLoginError(message: string): LoginErrorClass {
  const text = message.toLowerCase();
  if (['network', 'fetch', 'connection', 'timeout'].some((k) => text.includes(k))) return 'network';
  if (['jwt', 'token', 'claim'].some((k) => text.includes(k))) return 'jwt';
  if (['invalid', 'password', 'email', 'credentials'].some((k) => text.includes(k))) return 'auth';
  return 'unknown';
}
