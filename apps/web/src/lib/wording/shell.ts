/**
 * The application shell (navigation, palette, page titles), what every form and live figure says, and
 * the few words of a feature that the shell or another feature shows too (a settings row, a menu item).
 */
export const SHELL_WORDING = {
  /** What every form of the console says alike. */
  forms: {
    unsavedChanges: 'You have changes that are not saved. Leave this page and lose them?',
  },
  /** Live figures: how old the shown figures are, and asking again. */
  live: {
    updatedAgo: (seconds: number) => (seconds < 60 ? `Updated ${seconds} s ago` : `Updated ${Math.floor(seconds / 60)} min ago`),
    refresh: 'Refresh figures',
  },
  generic: {
    unknown: 'An unknown error occurred',
    unexpected: 'An unexpected error occurred',
  },
  /** Labels of the application shell. */
  shell: {
    menuTitle: 'Menu',
    menuDescription: 'Navigate through the application',
    nav: {
      dashboard: 'Dashboard',
      /** The viewer's own organization's page. */
      myOrganization: 'My Organization',
      organizations: 'Organizations',
      team: 'Team',
      resources: 'Resources',
      creditLedger: 'Credit Ledger',
      /** Invoices issued to children and received from the seller. */
      invoices: 'Invoices',
      pricing: 'Pricing',
      activity: 'Activity',
      agentCatalog: 'Agent Catalog',
      /** Settings > Webhooks, for the administrators who manage them. */
      webhooks: 'Webhooks',
      settings: 'Settings',
    },
    /** The ⌘K / Ctrl+K palette: jump to a page, organization, person or recent ledger entry by name. */
    palette: {
      button: 'Search',
      title: 'Search the console',
      description:
        'Type a name to jump to a page, an organization, a person or a recent ledger entry. Use the arrow keys to choose and Enter to open.',
      inputLabel: 'Search by name',
      placeholder: 'Search pages, organizations, people…',
      resultsLabel: 'Results',
      groups: { pages: 'Pages', organizations: 'Organizations', people: 'People', ledger: 'Recent ledger entries' },
      searching: 'Searching…',
      noResults: 'Nothing matches that name.',
      resultCount: (count: number) => (count === 1 ? '1 result' : `${count} results`),
    },
    profileFallback: 'Profile',
    avatarFallback: 'AV',
    settings: 'Settings',
    debug: 'Debug',
    logOut: 'Log out',
    darkMode: 'Dark mode',
    lightMode: 'Light mode',
    debugTitle: 'Debug tools',
    errorTitle: 'Error',
    /** The page named in the header, by route. */
    pageTitles: {
      organization: 'Organization',
      createOrganization: 'Create Organization',
      editOrganization: 'Edit Organization',
      allocateCredits: 'Allocate Credits',
      billing: 'Billing',
      billingManagement: 'Billing Management',
      users: 'Users',
      user: 'User',
      inviteUser: 'Invite User',
      editUser: 'Edit User',
      debug: 'Debug',
    },
  },
  /** Labels of the debug tools. */
  debugPages: {
    jwtDebugger: 'JWT Debugger',
    tokenExpired: 'Expired',
  },
  /** Labels of Settings > Webhooks and an endpoint's delivery log. */
  webhookPages: {
    title: 'Webhooks',
    settingsLink: 'Manage webhooks',
  },
  /** Settings > Identity: the organization's single sign-on and provisioning, for its own admins (MESSAGES.identityPages). */
  identityPages: {
    title: 'Identity',
    settingsLink: 'Manage identity',
    yourOrganization: 'your organization',
  },
} as const;
