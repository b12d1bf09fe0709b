// Relative, not through '@/': the e2e journeys read every feature's words from outside the app's alias.
import { withFeatureWords } from '../../lib/wording';

/** The words only the api keys feature shows, over the console's shared ones (`withFeatureWords`). */
export const MESSAGES = withFeatureWords({
  /** Labels of the API keys section of Settings. */
  apiKeyPages: {
    title: 'API keys',
    /** A seller's keys report for the organizations below it too; a tenant has none. */
    description: (organization: string, sells: boolean) =>
      `Agent runtimes use these keys to report usage, status and health for ${organization}${sells ? ' and the organizations below it' : ''}. Only its administrators see them. A key belongs to the organization, not to the person who made it: it keeps working when that person leaves or moves, until it is revoked or ends.`,
    loadFailed: 'Failed to load API keys',
    empty: 'No API keys yet.',
    create: 'Create key',
    createTitle: 'Create an API key',
    createDescription: 'Give the key a name you will recognise and only the scopes its runtime needs.',
    name: 'Name',
    nameHint: 'For example "Production runtime".',
    scopes: 'Scopes',
    creating: 'Creating…',
    createFailed: 'Failed to create the API key',
    created: 'API key created',
    secretTitle: 'Copy your new API key',
    secretWarning:
      'This is the only time the key is shown. Copy it now and keep it somewhere safe: only a hash of it is stored, so it cannot be shown again. If it is lost, revoke it and create another.',
    secretLabel: 'API key',
    copy: 'Copy',
    copied: 'API key copied',
    copyFailed: 'Could not copy the key: select it and copy it by hand.',
    done: 'Done',
    revoke: 'Revoke',
    revokeTitle: (name: string) => `Revoke ${name}?`,
    revokeBody: 'Runtimes that use this key are refused from now on. This cannot be undone.',
    revoked: (name: string) => `${name} revoked`,
    revokeFailed: 'Failed to revoke the API key',
    revokedBadge: 'Revoked',
    neverUsed: 'Never',
    expiresOn: 'Expires on (optional)',
    expiresHint: 'The key stops at the end of that day. Leave empty for a key that never expires.',
    rateLimit: 'Requests per minute (optional)',
    rateLimitHint: (ceiling: number | null) =>
      `Leave empty for the default limit.${ceiling ? ` At most ${ceiling.toLocaleString('en-US')}.` : ''}`,
    rateLimitInvalid: 'Enter a whole number of requests per minute, at least 1.',
    edit: 'Edit',
    editTitle: (name: string) => `Edit ${name}`,
    editDescription: 'Rename the key, change or clear its end date, or set its own rate limit.',
    save: 'Save',
    saving: 'Saving…',
    saved: (name: string) => `${name} saved`,
    editFailed: 'Failed to save the API key',
    roll: 'Roll',
    rollTitle: (name: string) => `Roll ${name}?`,
    rollDescription:
      'The key gets a new secret, shown once. Runtimes still using the old secret keep working until the grace period you choose ends; then they are refused.',
    grace: 'Keep the old secret working for',
    graceLabels: { 0: 'No grace: it stops now', 3600: '1 hour', 86400: '24 hours', 604800: '7 days' } as Record<number, string>,
    rolling: 'Rolling…',
    rolled: (name: string) => `${name} rolled`,
    rollFailed: 'Failed to roll the API key',
    rolledSecretTitle: 'Copy the new secret',
    states: { live: 'Live', expiring: 'Expiring', expired: 'Expired', revoked: 'Revoked' },
    /** An expiring key whose own end is not near: what ends is the old secret's grace after a roll. */
    oldSecretEnding: 'Old secret ending',
    filterLabel: 'Show',
    filterAll: 'All keys',
    filters: { live: 'Live', expiring: 'Expiring soon', revoked: 'Revoked or expired' },
    emptyFiltered: 'No API keys match this filter.',
    oldSecret: (prefix: string, until: string) => `${prefix} (old secret, works until ${until})`,
    neverExpires: 'Never',
    defaultLimit: 'Default',
    /** The table's two-line cells. */
    endsOn: (date: string) => `Expires ${date}`,
    noExpiry: 'Never expires',
    lastUsedOn: (date: string) => `Last used ${date}`,
    notUsed: 'Never used',
    createdBy: (name: string) => `by ${name}`,
    usesAndLimit: (uses: number, limit: string) => `${uses.toLocaleString('en-US')} ${uses === 1 ? 'use' : 'uses'} · limit ${limit}`,
    perMinute: (n: number) => `${n.toLocaleString('en-US')}/min`,
    loadMore: 'Load more',
  },
  /** Monthly spend caps (per child subtree, activation and API key) and automatic top-ups. */
  spendPages: {
    keyWeeklyCapLabel: 'Weekly cap (credits, optional)',
    keyDailyCapLabel: 'Daily cap (credits, optional)',
    keyWindowCapHint: 'A day or an ISO week (Monday to Sunday), in UTC. Leave empty for no cap.',
    keyCapLabel: 'Monthly cap (credits, optional)',
    keyCapHint: 'What this key may charge in a calendar month (UTC). Leave empty for no cap.',
  },
});
