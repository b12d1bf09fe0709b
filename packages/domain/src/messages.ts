import { formatAmount } from './format-amount.ts';
import { ORG_TYPE_LABELS, isOrgType, orgTypeWithArticle } from './hierarchy.ts';
import { IDENTITY_MESSAGES } from './identity-messages.ts';
import { INVOICE_MESSAGES } from './invoice-messages.ts';
import { ALERT_LINE_MESSAGES } from './alert-line-messages.ts';

/** A wait in words: seconds under two minutes, whole minutes (rounded up) from there. */
export function waitOf(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 120) return s === 1 ? '1 second' : `${s} seconds`;
  return `${Math.ceil(s / 60)} minutes`;
}

/**
 * What the server answers and the domain's rules say: refusals, validation, mail. The console
 * shows these as they come, and keeps its own wording (labels, titles, toasts) in the web app.
 */
/** A cap's window in a refusal's title, and the span it counts: every window is UTC's. */
function capWindowTitle(window: string): string {
  return window === 'day' ? 'Daily' : window === 'week' ? 'Weekly' : 'Monthly';
}
function capWindowSpan(window: string): string {
  return window === 'day' ? 'a day (UTC)' : window === 'week' ? 'a week (Monday to Sunday, UTC)' : 'a calendar month (UTC)';
}

export const MESSAGES = {
  auth: {
    invalidCredentials: 'Invalid email or password. Please check your credentials and try again.',
    resetSent: "If an account exists with the email you entered, we've sent a password reset link. Please check your email.",
    invalidResetLink: 'Invalid or expired password reset link. Please request a new one.',
    passwordsDoNotMatch: 'Passwords do not match',
    passwordTooShort: 'Password must be at least 8 characters long',
    userNotAuthenticated: 'User is not authenticated.',
    sessionExpired: 'Your session has expired. Please sign in again.',
    accountInactive: 'This account is not active. Contact your administrator.',
    tooManyAttempts: 'Too many attempts. Please wait a moment and try again.',
    tooManyChanges: (limit: number, seconds: number) =>
      `You made more than ${limit} changes in a minute. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,
    emailRequired: 'Email is required',
    passwordRequired: 'Password is required',
    invalidEmail: 'Please enter a valid email address.',
    currentPasswordRequired: 'Enter your current password',
    currentPasswordWrong: 'Your current password is not correct.',
    codeRequired: 'Enter the code',
    totpCodeFormat: 'Enter the 6-digit code from your authenticator app.',
    codeWrong: 'That code is not valid. Check your authenticator app and try again.',
    challengeExpired: 'Your sign-in took too long. Enter your email and password again.',
    totpAlreadyEnrolled: 'An authenticator app is already set up. Remove it before setting up another.',
    totpNotStarted: 'Start the authenticator app setup again: it was not started or took too long.',
    totpNotEnrolled: 'No authenticator app is set up.',
    sessionNotFound: 'That session was not found or has already ended.',
    // Step-up before money and secrets.
    stepUpRequired: 'Confirm it is you: use your authenticator app or a passkey (or your password) to continue.',
    stepUpUseFactor: 'You have a second factor: confirm with it or a recovery code.',
    stepUpUsePassword: 'You have no second factor: confirm with your password.',
    stepUpPasswordWrong: 'That password is not correct.',
    stepUpCancelled: 'The action was not done: it needs you to confirm it is you.',
    // Passkeys
    passkeyNameRequired: 'Give the passkey a name',
    passkeyNameMax: 'A passkey name is at most 100 characters.',
    passkeyRefused: 'That passkey was not accepted. Try again, or use another way to sign in.',
    passkeyExpired: 'The passkey request took too long or was already used. Try again.',
    passkeyNotFound: 'That passkey was not found.',
    passkeyTooMany: (max: number) => `You can have at most ${max} passkeys. Remove one before adding another.`,
    passkeyProofRequired: 'Confirm with a current code or one of your passkeys.',
    passkeyCancelled: 'The passkey request was cancelled or not allowed by your browser.',
    passkeyUnsupported: 'This browser does not support passkeys.',
  },
  organizations: {
    nameMin: 'Organization name must be at least 2 characters.',
    nameMax: 'Organization name must be at most 100 characters.',
    selectType: 'Please select an organization type.',
    selectStatus: 'Please select a status',
    cannotCreateChildren: (type: string) => `Your organization type (${type}) cannot create child organizations.`,
    onlyOwnOrDirectChild: 'You can only update your own organization or direct child organizations.',
    notFound: 'Organization not found',
    wrongChildType: (parentType: string, childType: string) => {
      const parent = orgTypeWithArticle(parentType);
      return `${parent.charAt(0).toUpperCase()}${parent.slice(1)} can only create organizations of the next type down: ${isOrgType(childType) ? ORG_TYPE_LABELS[childType] : childType}.`;
    },
    deleteOnlyParentAdmins: 'Only administrators of the parent organization can delete an organization.',
    deleteHasChildren: 'This organization still has child organizations. Delete them first.',
    deleteHasActiveUsers: 'This organization still has active users. Deactivate them first.',
    deleteHasBalance: 'This organization still holds credits. Its balance must be zero before it is deleted.',
    debugOnly: 'Only house, super agency and agency administrators can use the debug tools.',
    statusOnlyParentAdmins: "Only administrators of the parent organization can change an organization's status.",
    /** Why a person of a suspended or inactive organization, or of one below it, cannot change anything. */
    frozen: (status: 'suspended' | 'inactive', where: 'own' | 'ancestor') =>
      where === 'own'
        ? `Your organization is ${status}: you can sign in and look, but nothing can be changed until the administrators of its parent organization make it active again.`
        : `An organization above yours is ${status}: you can sign in and look, but nothing can be changed until it is active again.`,
  },
  users: {
    invalidEmail: 'Please enter a valid email address.',
    firstNameMin: 'First name must be at least 2 characters.',
    lastNameMin: 'Last name must be at least 2 characters.',
    selectRole: 'Please select a role.',
    roleNotForOrgType: (role: string, type: string) => `The role ${role} does not exist in an organization of type ${type}.`,
    roleAboveOwn: 'You cannot give a role above your own.',
    cannotChangeOwnRole: 'You cannot change your own role.',
    cannotDeactivateSelf: 'You cannot deactivate yourself.',
    lastAdmin: 'This is the last active administrator of the organization. Make someone else an administrator first.',
    onlyOwnOrDirectChild: 'You can only manage users of your own organization or of its direct child organizations.',
    onlySelf: 'You can only edit your own profile.',
    higherRank: 'You cannot change a person whose role ranks above yours.',
    notFound: 'User record not found',
  },
  invitations: {
    parentInvitesDisabled: 'This organization does not accept invitations from its parent organization.',
    accountExists: 'An account with this email already exists.',
    alreadyPending: 'A pending invitation for this email already exists in this organization.',
    invalidLink: 'Invalid invitation link.',
    linkReplaced:
      'This invitation link was replaced by a newer one. Use the most recent link you received, or ask your administrator to send the invitation again.',
    expired: 'This invitation has expired. Ask your administrator for a new one.',
    revoked: 'This invitation was revoked. Ask your administrator for a new one.',
    used: 'This invitation has already been accepted.',
    otherAccount: 'This invitation was sent to another email address. Sign out and sign in with the invited account.',
    alreadyMember: 'This person is already a member of this organization.',
    alreadyInOrganization: 'You are already a member of this organization.',
    superseded:
      'This invitation no longer applies: an account for this email was created or joined an organization after it was sent. Sign in with that account, and ask for a new invitation if you still need one.',
    organizationDeleted: 'The organization of this invitation no longer exists.',
    tooManyFromInviter: (seconds: number) => `Too many invitations sent from your account. Try again in ${waitOf(seconds)}.`,
    tooManyForOrganization: (seconds: number) =>
      `Too many invitations sent for this organization or an organization it belongs to. Try again in ${waitOf(seconds)}.`,
    tooManyToAddress: (seconds: number) => `Too many invitations sent to this email address. Try again in ${waitOf(seconds)}.`,
    resentTooSoon: (seconds: number) => `This invitation was sent a moment ago. Try again in ${waitOf(seconds)}.`,
  },
  credits: {
    amountPositive: 'Amount must be greater than zero',
    amountInvalid: 'Please enter a valid amount',
    amountNotNumber: 'Amount must be a number',
    selectChild: 'Please select a child organization',
    notDirectChild: 'The selected organization is not a direct child of your current organization.',
    insufficient: (balance: string) => `Insufficient credits: the balance is ${formatAmount(balance)} credits.`,
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
    notActive: 'Credits move only between active organizations.',
    balanceLimit: (max: string) => `This would take a balance above the most an organization can hold (${max} credits).`,
    refundNeedsConsumption:
      'A refund must name the consumption it returns: refund_of, the id of the usage event (or the external_ref of the consumption) of the same organization.',
    refundUnknownConsumption: (ref: string) => `No consumption "${ref}" was charged to this organization.`,
    refundExceeds: (left: string) => `The refund is more than what is left to refund of that consumption (${left} credits).`,
    reversalReason: 'Give a reason of at least 3 characters.',
    allocationNotFound: 'Allocation not found',
    onlySenderAdmins: 'Only administrators of the organization that made an allocation reverse it.',
    alreadyReversed: 'This allocation was already reversed.',
    reversalWindowPassed: (hours: number) => `An allocation can be reversed only within ${hours} hours of it.`,
    reversalNotCovered: (child: string, balance: string) =>
      `${child} holds ${formatAmount(balance)} credits: no longer enough to give this allocation back.`,
    reversed: 'Allocation reversed',
  },
  billing: {
    invalidValue: 'Invalid value',
    negative: 'Agent limit cannot be negative',
    updateFailed: (message: string) => `Failed to update agent limit: ${message}`,
    onlyParentAdmins: "Only administrators of the parent organization set an organization's agent limit.",
    aboveCapacity: (max: number) =>
      `The limit exceeds the capacity the parent organization has left: at most ${max} for this organization.`,
    belowChildren: (total: number) =>
      `The limit cannot be lower than what its child organizations hold together (${total}). Lower theirs first.`,
    belowActive: (active: number, limit: number) =>
      `The limit cannot be lower than the agents active now: ${active} active, ${limit} asked. Deactivate agents first.`,
    thresholdOnlyOwnAdmins: 'Only administrators of the organization set its low-balance alert threshold.',
  },
  /** The agent catalog, activations and API keys. */
  agents: {
    catalogOnlyHouseAdmins: 'Only house administrators manage the agent catalog.',
    typeNotFound: 'Agent type not found',
    codeTaken: (code: string) => `An agent type with the code "${code}" already exists. Choose another code.`,
    catalogFull: (max: number) => `The catalog holds at most ${max} agent types.`,
    onlyOwnOrParentAdmins: 'Only administrators of the organization or of its parent organization activate and deactivate its agents.',
    unknownAgentType: 'This agent type does not exist.',
    retired: (name: string) => `${name} is retired: it can no longer be activated.`,
    alreadyActive: (name: string) => `${name} is already active for this organization.`,
    organizationNotActive: 'Agents are activated only for active organizations.',
    limitReached: (used: number, limit: number) =>
      `The activated agent limit is reached: ${used} / ${limit} agents in use. Deactivate one, or ask for a higher limit.`,
    activationNotFound: 'Activation not found',
  },
  apiKeys: {
    onlyOwnAdmins: 'Only administrators of the organization manage its API keys.',
    notFound: 'API key not found',
    expiryNotFuture: 'The end date must be in the future.',
    expiryTooFar: (days: number) => `The end date must be at most ${days} days ahead.`,
    aboveCeiling: (ceiling: number) =>
      `The rate limit is above the house's ceiling of ${ceiling.toLocaleString('en-US')} requests per minute.`,
    notLive: (state: 'revoked' | 'expired') =>
      state === 'revoked'
        ? 'This API key is revoked: it cannot be changed or rolled.'
        : 'This API key has expired: it cannot be changed or rolled.',
    invalidCursor: 'The cursor is not one this list gave.',
    tooManyForOrganization: (seconds: number) =>
      `Too many API keys made, rolled or changed for this organization. Try again in ${waitOf(seconds)}.`,
    tooManyFromPerson: (seconds: number) => `Too many API keys made, rolled or changed from your account. Try again in ${waitOf(seconds)}.`,
  },
  /** Webhook endpoints and their deliveries. */
  webhooks: {
    onlyOwnAdmins: 'Only administrators of the organization manage its webhooks.',
    notFound: 'Webhook endpoint not found',
    deliveryNotFound: 'Delivery not found',
    urlRequired: 'Enter the URL the events are sent to.',
    urlTooLong: (max: number) => `The URL must be at most ${max} characters.`,
    urlInvalid: 'Enter an http or https URL, such as https://example.com/webhooks.',
    urlCredentials: 'The URL must not hold a user name or password.',
    httpsOnly: 'The URL must use https (plain http is allowed only for the addresses the server allows).',
    privateAddress: (host: string) =>
      `${host} is a loopback, private, link-local or metadata address: events are sent only to public addresses.`,
    unresolvable: (host: string) => `${host} could not be resolved to an address.`,
    descriptionTooLong: (max: number) => `The description must be at most ${max} characters.`,
    chooseEvents: 'Choose at least one event.',
    duplicateEvents: 'Each event may be chosen once.',
    tooMany: (max: number) => `An organization may have at most ${max} webhook endpoints.`,
    subtreeOnlyParents: 'A tenant has no organizations below it: its endpoints receive its own events only.',
    endpointDisabled: 'This endpoint is disabled: enable it before sending a test event.',
    sinceInvalid: 'Enter a date and time, such as 2026-11-27T09:00:00Z.',
    testMessage: 'A test event from the organization console.',
    tooMany429: (wait: string) => `Too many webhook changes for this organization. Try again in ${wait}.`,
    tooManyRedeliveries429: (max: number, wait: string) =>
      `This organization has queued its ${max.toLocaleString('en-US')} deliveries of test events and redeliveries for now. Try again in ${wait}.`,
    disabledSubject: (url: string) => `Webhook endpoint disabled: ${url}`,
    disabledFailing: (org: string, url: string, hours: number) =>
      `${org}: the webhook endpoint ${url} failed every delivery for ${hours} hours and was disabled. Events are no longer sent to it. Fix the receiver, enable the endpoint again and redeliver the failed events in Settings > Webhooks.`,
    disabledGone: (org: string, url: string) =>
      `${org}: the webhook endpoint ${url} answered 410 Gone, asking for no more events, and was disabled. Enable it again in Settings > Webhooks if that was a mistake.`,
  },
  /** Metered usage and the machine API: why an event was refused, and the refusals of a key. */
  usage: {
    outOfReach: "The organization is out of reach: it must be the reporter's own organization or one below it, and not deleted.",
    organizationNotActive: 'The organization, or one above it, is suspended or inactive: it takes no usage.',
    unknownAgent: (code: string) => `No agent type has the code "${code}".`,
    agentNotActive: (code: string) => `The agent "${code}" is not activated for this organization.`,
    insufficient: (balance: string, charge: string) =>
      `Insufficient credits: the event would take ${formatAmount(charge)} credits and the balance is ${formatAmount(balance)} credits.`,
    ahead: (seconds: number) => `occurred_at is more than ${seconds / 60} minutes ahead of the server's clock.`,
    behind: (days: number) => `occurred_at is more than ${days} days in the past.`,
    noPrice: (code: string, at: string) => `The agent "${code}" had no price in force at ${at}.`,
    /** Stands for an organization the key's owner may not see (one above its own), in a refusal that would name it. */
    organizationAbove: 'an organization above yours',
    /** A cap refusal: what the cap is on, its window (day, week or month, UTC), who set it and when its window resets. */
    keyCapReached: (cap: string, window: string, resetsAt: string, key: string, setBy: string) =>
      `${capWindowTitle(window)} cap reached: the API key "${key}" may charge at most ${formatAmount(cap)} credits ${capWindowSpan(window)}, a cap set by ${setBy}, and this event would pass it. It resets at ${resetsAt}.`,
    activationCapReached: (cap: string, window: string, resetsAt: string, agent: string, setBy: string) =>
      `${capWindowTitle(window)} cap reached: the agent "${agent}" of this organization may charge at most ${formatAmount(cap)} credits ${capWindowSpan(window)}, a cap set by ${setBy}, and this event would pass it. It resets at ${resetsAt}.`,
    spendCapReached: (cap: string, window: string, resetsAt: string, organization: string, setBy: string) =>
      `${capWindowTitle(window)} spend cap reached: ${organization} and the organizations below it may spend at most ${formatAmount(cap)} credits ${capWindowSpan(window)}, a cap set by ${setBy}, and this event would pass it. It resets at ${resetsAt}.`,
    refundIdTaken: "This external_ref already names another entry of the organization's ledger.",
    batchTooLarge: (max: number) => `A batch holds at most ${max.toLocaleString('en-US')} events.`,
    noBalance: 'The balance is zero.',
    keyRequired: 'This route takes an API key (Authorization: Bearer oc_...).',
    invalidKey: 'The API key is not valid, or it was revoked.',
    keyExpired: 'This API key has expired.',
    keyRolled: 'This secret of the API key was replaced by a roll and its grace period is over: use the new secret.',
    keyOrganizationDeleted: 'The organization of this API key was deleted.',
    keyOrganizationFrozen: (status: 'suspended' | 'inactive', where: 'own' | 'ancestor') =>
      where === 'own'
        ? `The organization of this API key is ${status}: its keys act for nothing until it is active again.`
        : `An organization above this API key's organization is ${status}: its keys act for nothing until it is active again.`,
    missingScope: (scope: string) => `This API key does not hold the scope "${scope}".`,
    noLiveActivation: 'This organization has no live activation of that agent.',
    /** 429 on the machine API: which allowance ran out (a key, or an organization's subtree by its type). */
    rateLimited: (policy: string, perMinute: number, seconds: number) =>
      `Too many requests for ${policy === 'key' ? 'this API key' : `the ${policy.replace('_', ' ')} subtree this key belongs to`}: at most ${perMinute.toLocaleString('en-US')} a minute. Try again in ${seconds} seconds.`,
    tooManyRefusedKeys: (seconds: number) =>
      `Too many requests with a key that is not valid came from this address. Try again in ${seconds} seconds.`,
  },
  /** Mail to an organization's admins about its balance. */
  balanceAlerts: {
    lowBalanceSubject: (organization: string) => `Low balance: ${organization}`,
    lowBalance: (organization: string, balance: string, threshold: string) =>
      `Low balance: ${organization} has ${formatAmount(balance)} credits, below your alert threshold of ${formatAmount(threshold)} credits.`,
    insufficientSubject: (organization: string) => `Usage refused: ${organization}`,
    insufficient: (organization: string, balance: string) =>
      `Usage refused: ${organization} has ${formatAmount(balance)} credits, not enough for the events its agents reported.`,
    /** To the parent's admins, when the organization has no active admin of its own. */
    childLowBalanceSubject: (child: string) => `Low balance: ${child} (no active admin)`,
    childLowBalance: (child: string, parent: string, balance: string, threshold: string) =>
      `Low balance: ${child}, a child of ${parent}, has ${formatAmount(balance)} credits, below its alert threshold of ${formatAmount(threshold)}. It has no active admin, so this alert goes to the admins of ${parent}.`,
  },
  /** Monthly spend caps and automatic top-ups. */
  spend: {
    capInvalid: 'Enter a cap of 0 or more credits, with at most 2 decimal places.',
    capMissing: 'Set or remove at least one cap: daily_cap, weekly_cap or monthly_cap.',
    topUpLineInvalid: 'Enter the balance below which a top-up is made: 0 or more credits, with at most 2 decimal places.',
    topUpAboveMonthlyMax: 'A top-up cannot be larger than its monthly maximum.',
    onlyParentAdmins: "Only administrators of the parent organization set a child's spend cap and automatic top-up.",
    keyCapOnlyOwnAdmins: "Only administrators of the key's organization set its monthly cap.",
    activationCapOnlyAdmins: "Only administrators of the organization, or of its parent, set an agent's monthly cap.",
    activationNotFound: 'No live activation with this id in this organization.',
    capWarningSubject: (name: string) => `Spend cap at 80 %: ${name}`,
    capReachedSubject: (name: string) => `Spend cap reached: ${name}`,
    /** A cap's alert; `window` and `start` (the alert's detail) name a day or week cap's window, a month cap's is `month`. */
    capAlert: (what: string, percent: number, charged: string, cap: string, month: string, window = 'month', start = month) =>
      `${what} has charged ${formatAmount(charged)} credits of its ${window === 'day' ? 'daily' : window === 'week' ? 'weekly' : 'monthly'} cap of ${formatAmount(cap)} credits for ${window === 'day' ? start : window === 'week' ? `the week of ${start}` : month} (UTC): ${percent >= 100 ? 'the cap is reached, and usage that would pass it is refused' : 'it has used 80 % of it'}.`,
    topUpFailedSubject: (child: string) => `Automatic top-up refused: ${child}`,
    topUpFailed: (child: string, amount: string, why: string) =>
      `The automatic top-up of ${formatAmount(amount)} credits to ${child} was not made: ${why}. Allocate credits to it by hand, or change its top-up on its billing page.`,
    topUpParentShort: (balance: string) => `your balance is ${formatAmount(balance)} credits`,
    topUpMonthlyMax: (max: string) => `its top-ups this month would pass their monthly maximum of ${formatAmount(max)} credits`,
  },
  /** Price books and earnings. */
  pricing: {
    onlyOwnAdmins: 'Only administrators of a super agency or an agency set what its children pay.',
    houseUsesCatalog: "The house's children pay the catalog price: change it in the agent catalog.",
    onlyOwn: "Only the organization's own people see its prices and earnings.",
    belowOwnPrice: (own: string) =>
      `A price for your children cannot be below your own price of ${own} per unit. Enter ${own} or more, or pass your price through.`,
    noPrice: 'This agent type has no price yet, so no price can be set for it.',
    retired: 'This agent type is retired.',
    notDirectChild: 'A child price is set only for a direct child of your organization.',
    childBelowOwnPrice: (own: string) =>
      `A price for one child cannot be below your own price of ${own} per unit. Enter ${own} or more, or remove the child price so the child pays your book price.`,
    flooredSubject: (agent: string) => `Your price for ${agent} rose above what you charge`,
    flooredMail: (org: string, agent: string, parentPrice: string, book: string) =>
      `${org}: your own price for ${agent} rose to ${parentPrice} per unit, above the ${book} you charge your children. They now pay ${parentPrice} (your margin on ${agent} is zero) until you set a new price on the Pricing page.`,
  },
  generic: {
    notFound: 'Not found',
    forbidden: 'You do not have permission to do this.',
    invalidRequest: 'The request is not valid.',
    /** A page number of a list that is not 1, 2, 3…. */
    invalidPage: 'The page must be a whole number from 1 up.',
    internal: 'Something went wrong on our side. Please try again.',
    concurrentChange: 'Another change to the same records happened at the same moment, and nothing was saved. Please try again.',
    duplicate: 'The same value was just saved by another request, so nothing was changed.',
    busy: 'Too many of these are running at the moment. Please try again in a few seconds.',
  },
  /** The house admins' global settings: why a link or a community channel is refused. */
  globalSettings: {
    invalidUrl: 'Enter a full web address starting with http:// or https://.',
    urlTooLong: 'A link can be at most 2048 characters.',
    channelNameRequired: "Enter the channel's name.",
    channelNameTooLong: 'A channel name can be at most 60 characters.',
    channelUrlRequired: "Enter the channel's link.",
    tooManyChannels: 'At most two community channels.',
    ceilingInvalid: (max: number) => `Enter a whole number of requests per minute from 1 to ${max.toLocaleString('en-US')}.`,
  },
  /** The require-a-second-factor policy. */
  mfaPolicy: {
    graceDays: 'Enter a grace period of 0 to 14 whole days.',
    onlyOwnAdmins: "Only the organization's own admins set its second-factor policy.",
    adminsOnlyHouse: 'Only the house requires a second factor for every admin role in the tree.',
    enrollmentRequired:
      'Your organization requires a second factor and your grace period has ended. Set up an authenticator app on the Security page to continue.',
  },
  /** Single sign-on and provisioning. */
  identity: IDENTITY_MESSAGES,
  /** Billing details, invoices, payments and statements. */
  invoices: INVOICE_MESSAGES,
  /** An organization's alert lines: the balance, a percent of its spend cap, the days of runway. */
  alertLines: ALERT_LINE_MESSAGES,
  /** Recovery by an admin: the mails a reset of a person's second factors sends. */
  factorsReset: {
    personSubject: 'Your second factors were reset',
    person: (admin: string) =>
      `${admin}, an administrator of your organization, removed every second factor of your account (authenticator app, passkeys and recovery codes) and signed you out everywhere.\n\n` +
      'Sign in with your password alone, then set up an authenticator app again under Account > Security.\n\n' +
      'If you did not ask for this, tell your administrators at once and change your password.',
    adminsSubject: (person: string) => `Second factors reset: ${person}`,
    admins: (person: string, admin: string, organization: string) =>
      `${admin} removed every second factor (authenticator app, passkeys and recovery codes) of ${person} in ${organization} and ended their sessions. ` +
      `${person} now signs in with their password alone until they set up a factor again.\n\n` +
      'If nobody asked for this, check the activity log and the account at once.',
  },
} as const;
