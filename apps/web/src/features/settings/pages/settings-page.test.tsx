import { UI, type BillingResponse, type GlobalSettings } from '@console/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { LIVE_REFRESH_MS } from '@/api/live';
import { billingOf, OWN_ORG_ID } from '@/test/billing-data';
import { ledgerPage } from '@/test/credit-data';
import { apiError, json, makeSession, mockApi, queryClientWithoutRetries, renderApp } from '@/test/helpers';
import { MESSAGES } from '../wording';
import { KEYS, LEDGER, renderSettings, SETTINGS, UNSET } from '@/test/settings-data';

const m = MESSAGES.billingPages;
const t = MESSAGES.thresholdPages;
const g = MESSAGES.globalSettings;

beforeAll(() => Promise.all([import('@/app/shell/app-shell'), import('@/app/settings-route')]), 30_000);

describe('settings page', { timeout: 20_000 }, () => {
  it('shows a loading state while the profile loads', async () => {
    const api = mockApi({ 'GET /api/users/me': () => new Promise<Response>(() => {}) });
    renderApp('/settings', { session: makeSession() });
    await waitFor(() => expect(api.fetch).toHaveBeenCalled());
    expect(screen.getByRole('heading', { level: 1, name: m.settingsTitle })).toBeInTheDocument();
    expect(screen.getByRole('status')).toBeInTheDocument();
  });

  it('shows Failed to load settings information when the profile cannot be loaded', async () => {
    mockApi({ 'GET /api/users/me': () => apiError(500, 'internal', 'Database unavailable') });
    renderApp('/settings', { session: makeSession(), queryClient: queryClientWithoutRetries() });
    // The sentence itself, not its key: a change of wording shows here.
    expect(await screen.findByText('Failed to load settings information.', undefined, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
  }, 15_000);

  it('shows the load failure when the profile comes without its organization, which the contract requires', async () => {
    const session = makeSession();
    mockApi({ 'GET /api/users/me': () => json(200, { ...session.user, organization: null }) });
    renderApp('/settings', { session, queryClient: queryClientWithoutRetries() });
    expect(await screen.findByText(m.settingsLoadFailed)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.generic.unexpected)).toBeInTheDocument();
  });

  it('a tenant admin sees the account, metrics, recent transactions, profile and honest placeholders', async () => {
    const { session, api } = renderSettings({ role: 'tenant_admin', orgType: 'tenant' });
    expect(await screen.findByRole('link', { name: m.manageBilling })).toHaveAttribute('href', `/orgs/${OWN_ORG_ID}/billing`);
    expect(screen.getByRole('link', { name: m.viewResources })).toHaveAttribute('href', '/resources');
    expect(await screen.findByTestId('credit-balance')).toHaveTextContent('142.00 credits');
    expect(screen.getByTestId('agent-usage')).toHaveTextContent(m.agentsUsed(0, 10));
    expect(screen.getByText(m.badgeGood)).toBeInTheDocument();
    // The tenant's own limit is set by the parent: no Adjust Limit here.
    expect(screen.queryByRole('button', { name: m.adjustLimit })).not.toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.credits.emptyTitle)).toBeInTheDocument();
    expect(api.queriesOf(LEDGER)).toEqual([{ organization_id: OWN_ORG_ID, limit: '5' }]);
    expect(screen.getByRole('link', { name: MESSAGES.creditPages.viewFullLedger })).toHaveAttribute('href', '/credit-ledger');
    expect(screen.getByRole('link', { name: m.editProfile })).toHaveAttribute('href', `/users/${session.user.id}/edit`);
    // No links set: the honest lines, and no form (not a house admin).
    expect(await screen.findByText(g.noBillingPortal)).toBeInTheDocument();
    expect(screen.getByText(g.noCommunity)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: g.billingPortal })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: g.title })).not.toBeInTheDocument();
    expect(screen.getByText(m.supportContact)).toBeInTheDocument();
    expect(screen.getByText(m.noReferralProgram)).toBeInTheDocument();
    expect(screen.queryByText('$0.00')).not.toBeInTheDocument();
  });

  it('asks for the balance again every LIVE_REFRESH_MS while the tab is visible, shows the new one and how old it is', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let balance = '142.00';
      const { api } = renderSettings({ role: 'tenant_admin', orgType: 'tenant' }, undefined, {
        [`GET /api/organizations/${OWN_ORG_ID}/billing`]: () => json(200, billingOf({ limit: 10, balance })),
      });
      expect(await screen.findByTestId('credit-balance')).toHaveTextContent('142.00 credits');
      const card = screen.getByTestId('credit-balance').closest('[class*="rounded-xl"]') as HTMLElement;
      expect(within(card).getByTestId('freshness')).toHaveTextContent(MESSAGES.live.updatedAgo(0));
      balance = '129.23';
      await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS);
      await waitFor(() => expect(screen.getByTestId('credit-balance')).toHaveTextContent('129.23 credits'));
      expect(api.callsTo(`GET /api/organizations/${OWN_ORG_ID}/billing`)).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends a house admin to /organizations/{id}/billing', async () => {
    renderSettings({ role: 'house_admin', orgType: 'house' }, billingOf({ limit: 100, max: null, manage: true }));
    expect(await screen.findByRole('link', { name: m.manageBilling })).toHaveAttribute('href', `/organizations/${OWN_ORG_ID}/billing`);
    expect(await screen.findByRole('button', { name: m.adjustLimit })).toBeInTheDocument();
  });

  it('leads every person to their Security page', async () => {
    renderSettings({ role: 'tenant_user', orgType: 'tenant' });
    expect(await screen.findByRole('link', { name: MESSAGES.security.settingsLink })).toHaveAttribute('href', '/account/security');
  });

  it('offers no Manage Billing to a role without the limit or allocate permission', async () => {
    renderSettings({ role: 'tenant_user', orgType: 'tenant' });
    expect(await screen.findByRole('link', { name: m.viewResources })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: m.manageBilling })).not.toBeInTheDocument();
  });

  it('shows Failed to load settings information. with the reason when the billing settings fail to load', async () => {
    const session = makeSession();
    mockApi({
      'GET /api/users/me': () => json(200, session.user),
      [`GET /api/organizations/${OWN_ORG_ID}/billing`]: () => apiError(500, 'internal', 'Database unavailable'),
      [LEDGER]: () => json(200, ledgerPage([], { credit_balance: '0.00' })),
      [KEYS]: () => json(200, { api_keys: [] }),
    });
    renderApp('/settings', { session, queryClient: queryClientWithoutRetries() });
    expect(await screen.findByText('Failed to load settings information.')).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
  });

  it('shows Access Denied when the billing settings are refused', async () => {
    const session = makeSession();
    mockApi({
      'GET /api/users/me': () => json(200, session.user),
      [`GET /api/organizations/${OWN_ORG_ID}/billing`]: () => apiError(403, 'forbidden', MESSAGES.generic.forbidden),
      [LEDGER]: () => json(200, ledgerPage([], { credit_balance: '0.00' })),
      [KEYS]: () => json(200, { api_keys: [] }),
    });
    renderApp('/settings', { session });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
  });
});

const withThreshold = (threshold: string, balance = '142.00'): BillingResponse => {
  const billing = billingOf({ limit: 10, balance });
  return { ...billing, billing_settings: { ...billing.billing_settings, low_balance_threshold: threshold } };
};

describe('settings: the low-balance threshold', { timeout: 20_000 }, () => {
  it('shows the threshold to everyone and warns below it, but offers no change to a user', async () => {
    renderSettings({ role: 'tenant_user', orgType: 'tenant' }, withThreshold('150.00'));
    expect(await screen.findByTestId('low-balance-threshold')).toHaveTextContent(t.body('150.00 credits'));
    expect(screen.getByText(MESSAGES.credits.lowBalance)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t.change })).not.toBeInTheDocument();
  });

  it('lets an admin change it, refusing what is not an amount, and shows the saved one', async () => {
    let saved = withThreshold('100.00');
    const { api } = renderSettings({ role: 'tenant_admin', orgType: 'tenant' }, saved, {
      [`GET /api/organizations/${OWN_ORG_ID}/billing`]: () => json(200, saved),
      [`PUT /api/organizations/${OWN_ORG_ID}/low-balance-threshold`]: () => {
        saved = withThreshold('250.50');
        return json(200, saved);
      },
    });
    expect(screen.queryByText(MESSAGES.credits.lowBalance)).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: t.change }));
    const dialog = await screen.findByRole('dialog', { name: t.dialogTitle });
    const input = within(dialog).getByLabelText(t.label);
    expect(input).toHaveValue(100);
    await user.clear(input);
    await user.type(input, '12.345');
    await user.click(within(dialog).getByRole('button', { name: MESSAGES.agentPages.save }));
    expect(await within(dialog).findByText('Enter a threshold of 0 or more, with at most 2 decimal places.')).toBeInTheDocument();
    expect(api.callsTo(`PUT /api/organizations/${OWN_ORG_ID}/low-balance-threshold`)).toHaveLength(0);

    await user.clear(input);
    await user.type(input, '250.5');
    await user.click(within(dialog).getByRole('button', { name: MESSAGES.agentPages.save }));
    expect(await screen.findByText(t.saved)).toBeInTheDocument();
    expect(api.bodiesOf(`PUT /api/organizations/${OWN_ORG_ID}/low-balance-threshold`)).toEqual([{ low_balance_threshold: '250.50' }]);
    expect(screen.getByTestId('low-balance-threshold')).toHaveTextContent(t.body('250.50 credits'));
    // 142.00 is now below the threshold.
    expect(screen.getByText(MESSAGES.credits.lowBalance)).toBeInTheDocument();
  });
});

describe('settings: appearance', { timeout: 20_000 }, () => {
  /** A device whose colour preference the test changes, telling the page as a browser does. */
  function deviceScheme(initiallyDark: boolean) {
    let dark = initiallyDark;
    const listeners = new Set<() => void>();
    const fallback = window.matchMedia;
    vi.stubGlobal('matchMedia', (query: string) =>
      query === '(prefers-color-scheme: dark)'
        ? {
            matches: dark,
            media: query,
            addEventListener: (_: string, f: () => void) => listeners.add(f),
            removeEventListener: (_: string, f: () => void) => listeners.delete(f),
          }
        : fallback(query),
    );
    return {
      set(next: boolean) {
        dark = next;
        act(() => listeners.forEach((listener) => listener()));
      },
    };
  }

  it('offers Light, Dark and System; System follows the device live and is kept', async () => {
    const device = deviceScheme(true);
    renderSettings();
    const user = userEvent.setup();
    const group = await screen.findByRole('group', { name: MESSAGES.shell.appearanceTitle });
    expect(within(group).getByRole('radio', { name: MESSAGES.shell.themeLabels.light })).toBeChecked();
    expect(document.documentElement).toHaveClass('light');

    await user.click(within(group).getByRole('radio', { name: MESSAGES.shell.themeLabels.system }));
    expect(localStorage.getItem(UI.themeStorageKey)).toBe('system');
    expect(document.documentElement).toHaveClass('dark');
    device.set(false);
    await waitFor(() => expect(document.documentElement).toHaveClass('light'));
    expect(document.documentElement).not.toHaveClass('dark');

    await user.click(within(group).getByRole('radio', { name: MESSAGES.shell.themeLabels.dark }));
    expect(localStorage.getItem(UI.themeStorageKey)).toBe('dark');
    expect(document.documentElement).toHaveClass('dark');
    device.set(true);
    device.set(false);
    expect(document.documentElement).toHaveClass('dark');
  });

  it('opens on the stored choice', async () => {
    localStorage.setItem(UI.themeStorageKey, 'system');
    renderSettings();
    const group = await screen.findByRole('group', { name: MESSAGES.shell.appearanceTitle });
    expect(within(group).getByRole('radio', { name: MESSAGES.shell.themeLabels.system })).toBeChecked();
  });
});

describe('settings: global settings links', { timeout: 20_000 }, () => {
  const LINKS: GlobalSettings = {
    documentation_url: 'https://docs.example.test',
    billing_portal_url: 'https://billing.example.test/portal',
    community_channels: [
      { name: 'Forum', url: 'https://forum.example.test' },
      { name: 'Chat', url: 'https://chat.example.test/invite' },
    ],
    api_key_rate_limit_ceiling: 6000,
    step_up_threshold: '1000.00',
    updated_at: '2025-03-01T10:00:00Z',
    updated_by_name: 'Hana House',
  };

  it('shows the Billing Portal and the two community channels, opening in a new tab', async () => {
    renderSettings({ role: 'tenant_user' }, undefined, { [SETTINGS]: () => json(200, LINKS) });
    const portal = await screen.findByRole('link', { name: g.billingPortal });
    expect(portal).toHaveAttribute('href', LINKS.billing_portal_url);
    expect(portal).toHaveAttribute('target', '_blank');
    expect(portal).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('link', { name: 'Forum' })).toHaveAttribute('href', 'https://forum.example.test');
    expect(screen.getByRole('link', { name: 'Chat' })).toHaveAttribute('href', 'https://chat.example.test/invite');
    expect(screen.queryByText(g.noBillingPortal)).not.toBeInTheDocument();
    expect(screen.queryByText(g.noCommunity)).not.toBeInTheDocument();
  });

  it('tells a house admin where to set unset links, checks them as the server does, and saves', async () => {
    let saved: GlobalSettings = UNSET;
    const { api } = renderSettings({ role: 'house_admin', orgType: 'house' }, billingOf({ limit: 100, max: null, manage: true }), {
      [SETTINGS]: () => json(200, saved),
      'PUT /api/settings': ({ body }) => {
        saved = {
          ...(body as Omit<GlobalSettings, 'updated_at' | 'updated_by_name'>),
          updated_at: '2025-03-01T10:00:00Z',
          updated_by_name: 'Alice',
        };
        return json(200, saved);
      },
    });
    const user = userEvent.setup();
    expect(await screen.findByText(g.noBillingPortalAdmin)).toBeInTheDocument();
    expect(screen.getByText(g.noCommunityAdmin)).toBeInTheDocument();
    const form = await screen.findByRole('form', { name: g.title });

    await user.type(within(form).getByLabelText(g.documentationUrl), 'javascript:alert(1)');
    await user.type(within(form).getByLabelText(g.channelName(2)), 'Chat');
    await user.click(within(form).getByRole('button', { name: g.save }));
    expect(within(form).getByLabelText(g.documentationUrl)).toHaveAccessibleDescription(g.invalidUrl);
    expect(within(form).getByLabelText(g.channelUrl(2))).toHaveAccessibleDescription(g.invalidUrl);
    expect(api.callsTo('PUT /api/settings')).toHaveLength(0);

    await user.clear(within(form).getByLabelText(g.documentationUrl));
    await user.type(within(form).getByLabelText(g.documentationUrl), 'https://docs.example.test');
    await user.type(within(form).getByLabelText(g.billingPortalUrl), 'https://billing.example.test/portal');
    await user.type(within(form).getByLabelText(g.channelUrl(2)), 'https://chat.example.test/invite');
    await user.click(within(form).getByRole('button', { name: g.save }));
    await waitFor(() => expect(api.bodiesOf('PUT /api/settings')).toHaveLength(1));
    expect(api.bodiesOf('PUT /api/settings')[0]).toEqual({
      documentation_url: 'https://docs.example.test',
      billing_portal_url: 'https://billing.example.test/portal',
      community_channels: [{ name: 'Chat', url: 'https://chat.example.test/invite' }],
      api_key_rate_limit_ceiling: 6000,
      step_up_threshold: '1000.00',
    });
    // The page shows what was saved at once.
    expect(await screen.findByRole('link', { name: g.billingPortal })).toHaveAttribute('href', 'https://billing.example.test/portal');
    expect(screen.getByRole('link', { name: 'Chat' })).toHaveAttribute('href', 'https://chat.example.test/invite');
    expect(screen.queryByText(g.noCommunityAdmin)).not.toBeInTheDocument();
  });

  it('puts the server refusal on its field', async () => {
    const { api } = renderSettings({ role: 'house_admin', orgType: 'house' }, billingOf({ limit: 100, max: null, manage: true }), {
      'PUT /api/settings': () =>
        json(400, {
          error: { code: 'validation_failed', message: 'Invalid request', fields: { 'community_channels.0.url': g.urlTooLong } },
        }),
    });
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: g.title });
    await user.type(within(form).getByLabelText(g.channelName(1)), 'Forum');
    await user.type(within(form).getByLabelText(g.channelUrl(1)), 'https://forum.example.test');
    await user.click(within(form).getByRole('button', { name: g.save }));
    await waitFor(() => expect(api.callsTo('PUT /api/settings')).toHaveLength(1));
    await waitFor(() => expect(within(form).getByLabelText(g.channelUrl(1))).toHaveAccessibleDescription(g.urlTooLong));
  });

  it('lets a house admin change the API key rate limit ceiling, refusing what is not a whole number', async () => {
    const { api } = renderSettings({ role: 'house_admin', orgType: 'house' }, billingOf({ limit: 100, max: null, manage: true }), {
      'PUT /api/settings': ({ body }) =>
        json(200, { ...UNSET, ...(body as object), updated_at: '2025-03-01T10:00:00Z', updated_by_name: 'Alice' }),
    });
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: g.title });
    const ceiling = within(form).getByLabelText(g.rateLimitCeiling);
    expect(ceiling).toHaveValue('6000');
    await user.clear(ceiling);
    await user.type(ceiling, '0');
    await user.click(within(form).getByRole('button', { name: g.save }));
    expect(ceiling).toHaveAccessibleDescription(new RegExp(g.ceilingInvalid(1_000_000).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    expect(api.callsTo('PUT /api/settings')).toHaveLength(0);
    await user.clear(ceiling);
    await user.type(ceiling, '1200');
    await user.click(within(form).getByRole('button', { name: g.save }));
    await waitFor(() => expect(api.bodiesOf('PUT /api/settings')).toHaveLength(1));
    expect(api.bodiesOf('PUT /api/settings')[0]).toMatchObject({ api_key_rate_limit_ceiling: 1200 });
  });

  it('shows the step-up threshold to a house admin and saves a new one as an exact decimal, refusing what is no amount', async () => {
    const { api } = renderSettings({ role: 'house_admin', orgType: 'house' }, billingOf({ limit: 100, max: null, manage: true }), {
      'PUT /api/settings': ({ body }) =>
        json(200, { ...UNSET, ...(body as object), updated_at: '2025-03-01T10:00:00Z', updated_by_name: 'Alice' }),
    });
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: g.title });
    const threshold = within(form).getByLabelText(g.stepUpThreshold);
    expect(threshold).toHaveValue('1000.00');
    await user.clear(threshold);
    await user.type(threshold, 'lots');
    await user.click(within(form).getByRole('button', { name: g.save }));
    expect(threshold).toHaveAccessibleDescription(new RegExp(MESSAGES.credits.amountInvalid.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    expect(api.callsTo('PUT /api/settings')).toHaveLength(0);
    await user.clear(threshold);
    await user.type(threshold, '2500.5');
    await user.click(within(form).getByRole('button', { name: g.save }));
    await waitFor(() => expect(api.bodiesOf('PUT /api/settings')).toHaveLength(1));
    expect(api.bodiesOf('PUT /api/settings')[0]).toMatchObject({ step_up_threshold: '2500.5' });
  });
});
