// Relative, not through '@/': the e2e journeys read every feature's words from outside the app's alias.
import { withFeatureWords } from '../../lib/wording';

/** The words only the settings feature shows, over the console's shared ones (`withFeatureWords`). */
export const MESSAGES = withFeatureWords({
  /** Labels of the billing, settings and resources screens. */
  billingPages: {
    settingsSubtitle: 'Your account, billing and organization resources',
    /** Where the settings page cannot load the profile or the organization's billing it shows. */
    settingsLoadFailed: 'Failed to load settings information.',
    accountBilling: 'Account & Billing',
    accountBillingBody: 'Credits and agent limits of your organization.',
    manageBilling: 'Manage Billing',
    viewResources: 'View Resources',
    editProfile: 'Edit Profile',
    billingPayments: 'Billing & Payments',
    communitySupport: 'Community & Support',
    supportBody: 'For help with this console:',
    supportContact: 'Contact your administrator',
    referralProgram: 'Referral Program',
    noReferralProgram: 'No referral program is set up for this organization.',
  },
  /** Labels of the application shell. */
  shell: {
    appearanceTitle: 'Appearance',
    appearanceBody: 'Light, dark, or the same as your device (it follows when the device changes).',
    themeLabels: { light: 'Light', dark: 'Dark', system: 'System' },
  },
  /** The house admins' Global Settings form, and the links the Welcome and Settings pages show. */
  globalSettings: {
    title: 'Global Settings',
    description:
      'Links every person of the console sees: documentation on the Welcome page, the billing portal and community channels under Settings; and the highest rate limit an API key may be given.',
    documentationUrl: 'Documentation link',
    billingPortalUrl: 'Billing portal link',
    channelName: (n: number) => `Community channel ${n}: name`,
    channelUrl: (n: number) => `Community channel ${n}: link`,
    save: 'Save global settings',
    saving: 'Saving…',
    saved: 'Global settings saved',
    saveFailed: 'Failed to save global settings',
    loadFailed: 'Failed to load global settings',
    lastChanged: (when: string, who: string | null) => `Last changed ${when}${who ? ` by ${who}` : ''}.`,
    billingPortal: 'Billing Portal',
    noBillingPortal: 'No billing portal is set up yet. Ask your house administrator.',
    noBillingPortalAdmin: 'No billing portal is set up yet. Set its link under Global Settings below.',
    noCommunity: 'No community channels are set up yet. Ask your house administrator.',
    noCommunityAdmin: 'No community channels are set up yet. Add them under Global Settings below.',
    communityBody: 'Talk with other people using the console:',
    rateLimitCeiling: 'API key rate limit ceiling (requests per minute)',
    rateLimitCeilingHint: "The most requests per minute an organization's admins may give one of their API keys.",
    // Step-up threshold.
    stepUpThreshold: 'Confirmation threshold (credits)',
    stepUpThresholdHint:
      'Allocations and adjustments above this many credits ask the person to confirm it is them (a code from their app, or their password).',
  },
  /** Labels of Settings > Webhooks and an endpoint's delivery log. */
  webhookPages: {
    /** The Settings page's link to them. */
    settingsBody: 'Send events such as a low balance, a refused usage event or a new organization to your own systems.',
  },
  /** The Security page: the person's own second factors and sessions. */
  security: {
    settingsRow: 'Security',
    settingsRowBody: 'Two-step verification and your sessions',
    settingsLink: 'Manage security',
  },
  /** Settings > Identity: the organization's single sign-on and provisioning, for its own admins (MESSAGES.identityPages). */
  identityPages: {
    settingsBody: 'Single sign-on through your identity provider, e-mail domains and provisioning (SCIM).',
  },
});
