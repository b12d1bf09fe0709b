import { screen, waitFor, within } from '@testing-library/react';
import { format } from 'date-fns';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeyOf, KEY_ID, keyPage } from '@/test/api-key-data';
import { billingOf, OWN_ORG_ID } from '@/test/billing-data';
import { ledgerPage } from '@/test/credit-data';
import { json, makeSession, mockApi, renderApp, setViewportWidth } from '@/test/helpers';
import { MESSAGES } from '../wording';
import { KEYS, LEDGER, renderSettings } from '@/test/settings-data';

const k = MESSAGES.apiKeyPages;
const t = MESSAGES.thresholdPages;

// The card is shown on /settings, where the app composes it into the settings page.
beforeAll(() => Promise.all([import('@/app/shell/app-shell'), import('@/app/settings-route')]), 30_000);

describe('settings: API keys', { timeout: 20_000 }, () => {
  it("lists the organization's keys for its admins: name, prefix, scopes, creator, created, last used and uses", async () => {
    renderSettings({ role: 'agency_admin', orgType: 'agency' }, undefined, {
      [KEYS]: () =>
        json(
          200,
          keyPage([
            apiKeyOf({ last_used_at: '2025-03-02T09:30:00.000Z', use_count: 1234 }),
            apiKeyOf({
              id: '00000000-0000-4000-8000-0000000000d2',
              name: 'Old runtime',
              prefix: 'oc_99aa88bb',
              scopes: ['entitlements:read'],
              revoked_at: '2025-03-03T00:00:00.000Z',
              state: 'revoked',
            }),
          ]),
        ),
    });
    const table = await screen.findByRole('table', { name: k.title });
    // Keys belong to the organization: the card says so, beside the list that names each key's maker.
    expect(screen.getByText(/A key belongs to the organization, not to the person who made it/)).toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Key', 'State', 'Scopes', 'Created', 'Use', 'Actions']);
    const [first, second] = within(table).getAllByRole('row').slice(1);
    const cells = within(first!)
      .getAllByRole('cell')
      .map((td) => td.textContent);
    expect(cells.slice(0, 3)).toEqual(['Production runtimeoc_1a2b3c4d', `${k.states.live}${k.noExpiry}`, 'Report usageReport status']);
    expect(cells[3]).toMatch(new RegExp(`${k.createdBy('Alice Admin')}$`));
    expect(cells[4]).toMatch(/^Last used Mar 2, 2025/);
    expect(cells[4]).toMatch(new RegExp(`${k.usesAndLimit(1234, k.defaultLimit)}${MESSAGES.spendPages.noCap}$`));
    expect(within(first!).getByRole('button', { name: `${k.revoke} Production runtime` })).toBeInTheDocument();
    expect(within(second!).getByText(k.revokedBadge)).toBeInTheDocument();
    expect(within(second!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(second!).getAllByRole('cell')[4]).toHaveTextContent(k.notUsed);
  });

  it("shows a frozen organization's admins their keys without Create key or Revoke", async () => {
    const session = makeSession({ role: 'agency_admin', orgType: 'agency' });
    session.user.organization = { ...session.user.organization, status: 'suspended' };
    mockApi({
      'GET /api/users/me': () => json(200, session.user),
      [`GET /api/organizations/${OWN_ORG_ID}/billing`]: () => json(200, billingOf()),
      [LEDGER]: () => json(200, ledgerPage([])),
      [KEYS]: () => json(200, keyPage([apiKeyOf()])),
    });
    renderApp('/settings', { session });
    expect(await screen.findByRole('row', { name: /Production runtime/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: k.create })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `${k.revoke} Production runtime` })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `${k.roll} Production runtime` })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `${k.edit} Production runtime` })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t.change })).not.toBeInTheDocument();
  });

  it('shows each key as a card with Revoke on a narrow screen', async () => {
    setViewportWidth(390);
    try {
      renderSettings({ role: 'agency_admin', orgType: 'agency' }, undefined, {
        [KEYS]: () => json(200, keyPage([apiKeyOf({ use_count: 7 })])),
      });
      const list = await screen.findByRole('list', { name: k.title });
      const card = within(list).getByRole('listitem');
      expect(card).toHaveTextContent('Production runtime');
      expect(card).toHaveTextContent('oc_1a2b3c4d');
      expect(card).toHaveTextContent('Report usageReport status');
      expect(card).toHaveTextContent('Created byAlice Admin');
      expect(card).toHaveTextContent('Uses7');
      expect(within(card).getByRole('button', { name: `${k.revoke} Production runtime` })).toBeInTheDocument();
      expect(screen.queryByRole('table', { name: k.title })).not.toBeInTheDocument();
    } finally {
      setViewportWidth(1024);
    }
  });

  it('is neither shown to nor fetched for managers and users', async () => {
    const { api } = renderSettings({ role: 'agency_manager', orgType: 'agency' });
    expect(await screen.findByTestId('credit-balance')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: k.title })).not.toBeInTheDocument();
    expect(api.callsTo(KEYS)).toHaveLength(0);
  });

  it('Create key checks the name and scopes, then shows the secret once with Copy and the warning', async () => {
    let keys = [] as ReturnType<typeof apiKeyOf>[];
    const secret = `oc_1a2b3c4d_${'f'.repeat(64)}`;
    const { api } = renderSettings({ role: 'agency_admin', orgType: 'agency' }, undefined, {
      [KEYS]: () => json(200, keyPage(keys)),
      [`POST /api/organizations/${OWN_ORG_ID}/api-keys`]: () => {
        keys = [apiKeyOf({ scopes: ['usage:write'] })];
        return json(201, { api_key: keys[0], secret });
      },
    });
    expect(await screen.findByText(k.empty)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: k.create }));
    let dialog = await screen.findByRole('dialog', { name: k.createTitle });
    await user.click(within(dialog).getByRole('button', { name: k.create }));
    expect(await within(dialog).findByText('Enter a name for the key.')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one scope.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(k.name)).toHaveAttribute('aria-invalid', 'true');

    await user.type(within(dialog).getByLabelText(k.name), 'Production runtime');
    await user.click(within(dialog).getByRole('checkbox', { name: /Report usage/ }));
    await user.click(within(dialog).getByRole('button', { name: k.create }));

    dialog = await screen.findByRole('dialog', { name: k.secretTitle });
    expect(api.bodiesOf(`POST /api/organizations/${OWN_ORG_ID}/api-keys`)).toEqual([
      { name: 'Production runtime', scopes: ['usage:write'] },
    ]);
    expect(within(dialog).getAllByText(k.secretWarning).length).toBeGreaterThan(0);
    expect(within(dialog).getByLabelText(k.secretLabel)).toHaveValue(secret);
    await user.click(within(dialog).getByRole('button', { name: k.copy }));
    expect(await navigator.clipboard.readText()).toBe(secret);
    expect(await screen.findByText(k.copied)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: k.done }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The list shows the new key by its prefix only.
    expect(await screen.findByRole('row', { name: /Production runtime/ })).toHaveTextContent('oc_1a2b3c4d');
    expect(screen.getByRole('table', { name: k.title })).not.toHaveTextContent(secret);
    expect(screen.queryByDisplayValue(secret)).not.toBeInTheDocument();
    // Opened again, the dialog starts afresh: the secret is gone.
    await user.click(screen.getByRole('button', { name: k.create }));
    expect(await screen.findByRole('dialog', { name: k.createTitle })).toBeInTheDocument();
    expect(screen.queryByDisplayValue(secret)).not.toBeInTheDocument();
  });

  it('Revoke asks first, then revokes the key', async () => {
    let revoked = false;
    const { api } = renderSettings({ role: 'agency_admin', orgType: 'agency' }, undefined, {
      [KEYS]: () => json(200, keyPage([apiKeyOf(revoked ? { revoked_at: '2025-03-04T00:00:00.000Z', state: 'revoked' } : {})])),
      [`DELETE /api/organizations/${OWN_ORG_ID}/api-keys/${KEY_ID}`]: () => {
        revoked = true;
        return json(200, { api_key: apiKeyOf({ revoked_at: '2025-03-04T00:00:00.000Z', state: 'revoked' }) });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `${k.revoke} Production runtime` }));
    const confirm = await screen.findByRole('alertdialog', { name: k.revokeTitle('Production runtime') });
    expect(confirm).toHaveTextContent(k.revokeBody);
    await user.click(within(confirm).getByRole('button', { name: k.revoke }));
    expect(await screen.findByText(k.revoked('Production runtime'))).toBeInTheDocument();
    expect(await screen.findByText(k.revokedBadge)).toBeInTheDocument();
    expect(api.callsTo(`DELETE /api/organizations/${OWN_ORG_ID}/api-keys/${KEY_ID}`)).toHaveLength(1);
  });

  it('shows state badges, both prefixes while the old secret works, the end date and rate limit, and each action only when the server takes it', async () => {
    renderSettings({ role: 'agency_admin', orgType: 'agency' }, undefined, {
      [KEYS]: () =>
        json(
          200,
          keyPage([
            apiKeyOf({
              name: 'Rolled',
              prefix: 'oc_22222222',
              state: 'expiring',
              previous_prefix: 'oc_11111111',
              previous_expires_at: '2025-03-05T12:00:00.000Z',
              rolled_at: '2025-03-04T12:00:00.000Z',
              rate_limit_per_minute: 600,
            }),
            apiKeyOf({
              id: '00000000-0000-4000-8000-0000000000d3',
              name: 'Lapsed',
              state: 'expired',
              expires_at: '2025-03-01T00:00:00.000Z',
            }),
            apiKeyOf({
              id: '00000000-0000-4000-8000-0000000000d4',
              name: 'Gone',
              state: 'revoked',
              revoked_at: '2025-03-03T00:00:00.000Z',
            }),
          ]),
        ),
    });
    const rolled = await screen.findByRole('row', { name: /Rolled/ });
    expect(rolled).toHaveTextContent(/oc_11111111 \(old secret, works until Mar 5, 2025/);
    expect(rolled).toHaveTextContent('oc_22222222');
    // The key never expires: what is ending is its old secret, and the badge says so.
    expect(within(rolled).getByText(k.oldSecretEnding)).toBeInTheDocument();
    expect(within(rolled).getByText(k.noExpiry)).toBeInTheDocument();
    expect(within(rolled).queryByText(k.states.expiring)).not.toBeInTheDocument();
    expect(rolled).toHaveTextContent(k.perMinute(600));
    for (const action of [k.edit, k.roll, k.revoke])
      expect(within(rolled).getByRole('button', { name: `${action} Rolled` })).toBeInTheDocument();

    const lapsed = screen.getByRole('row', { name: /Lapsed/ });
    expect(within(lapsed).getByText(k.states.expired)).toBeInTheDocument();
    expect(within(lapsed).getByRole('button', { name: `${k.revoke} Lapsed` })).toBeInTheDocument();
    expect(within(lapsed).queryByRole('button', { name: `${k.roll} Lapsed` })).not.toBeInTheDocument();
    expect(within(lapsed).queryByRole('button', { name: `${k.edit} Lapsed` })).not.toBeInTheDocument();

    const gone = screen.getByRole('row', { name: /Gone/ });
    expect(within(gone).getByText(k.states.revoked)).toBeInTheDocument();
    expect(within(gone).queryByRole('button')).not.toBeInTheDocument();
  });

  it('Create key sends the optional end date (the end of the chosen day) and rate limit, checked first', async () => {
    const secret = `oc_1a2b3c4d_${'e'.repeat(64)}`;
    const { api } = renderSettings({ role: 'agency_admin', orgType: 'agency' }, undefined, {
      [KEYS]: () => json(200, keyPage([])),
      [`POST /api/organizations/${OWN_ORG_ID}/api-keys`]: () => json(201, { api_key: apiKeyOf(), secret }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: k.create }));
    const dialog = await screen.findByRole('dialog', { name: k.createTitle });
    await user.type(within(dialog).getByLabelText(k.name), 'Nightly');
    await user.click(within(dialog).getByRole('checkbox', { name: /Report usage/ }));
    await user.type(within(dialog).getByLabelText(k.expiresOn), '2001-01-01');
    await user.type(within(dialog).getByLabelText(k.rateLimit), '12.5');
    await user.click(within(dialog).getByRole('button', { name: k.create }));
    expect(await within(dialog).findByText(MESSAGES.apiKeys.expiryNotFuture)).toBeInTheDocument();
    expect(within(dialog).getByText(k.rateLimitInvalid)).toBeInTheDocument();
    expect(api.callsTo(`POST /api/organizations/${OWN_ORG_ID}/api-keys`)).toHaveLength(0);

    const day = format(new Date(Date.now() + 30 * 86_400_000), 'yyyy-MM-dd');
    await user.clear(within(dialog).getByLabelText(k.expiresOn));
    await user.type(within(dialog).getByLabelText(k.expiresOn), day);
    await user.clear(within(dialog).getByLabelText(k.rateLimit));
    await user.type(within(dialog).getByLabelText(k.rateLimit), '120');
    await user.click(within(dialog).getByRole('button', { name: k.create }));
    expect(await screen.findByRole('dialog', { name: k.secretTitle })).toBeInTheDocument();
    expect(api.bodiesOf(`POST /api/organizations/${OWN_ORG_ID}/api-keys`)).toEqual([
      { name: 'Nightly', scopes: ['usage:write'], expires_at: new Date(`${day}T23:59:59.999`).toISOString(), rate_limit_per_minute: 120 },
    ]);
  });

  it('Roll asks for the grace period, then shows the new secret once', async () => {
    const secret = `oc_99999999_${'d'.repeat(64)}`;
    const { api } = renderSettings({ role: 'agency_admin', orgType: 'agency' }, undefined, {
      [KEYS]: () => json(200, keyPage([apiKeyOf()])),
      [`POST /api/organizations/${OWN_ORG_ID}/api-keys/${KEY_ID}/roll`]: () =>
        json(200, {
          api_key: apiKeyOf({
            prefix: 'oc_99999999',
            previous_prefix: 'oc_1a2b3c4d',
            previous_expires_at: '2025-03-05T00:00:00.000Z',
            state: 'expiring',
          }),
          secret,
        }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `${k.roll} Production runtime` }));
    let dialog = await screen.findByRole('dialog', { name: k.rollTitle('Production runtime') });
    expect(
      within(dialog)
        .getAllByRole('radio')
        .map((radio) => radio.parentElement?.textContent),
    ).toEqual([k.graceLabels[0], k.graceLabels[3600], k.graceLabels[86400], k.graceLabels[604800]]);
    await user.click(within(dialog).getByRole('radio', { name: k.graceLabels[86400] }));
    await user.click(within(dialog).getByRole('button', { name: k.roll }));
    dialog = await screen.findByRole('dialog', { name: k.rolledSecretTitle });
    expect(within(dialog).getByLabelText(k.secretLabel)).toHaveValue(secret);
    expect(api.bodiesOf(`POST /api/organizations/${OWN_ORG_ID}/api-keys/${KEY_ID}/roll`)).toEqual([{ grace_seconds: 86400 }]);
    await user.click(within(dialog).getByRole('button', { name: k.done }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue(secret)).not.toBeInTheDocument();
  });

  it('Edit sends only what changed: a new name and a cleared end date', async () => {
    const { api } = renderSettings({ role: 'agency_admin', orgType: 'agency' }, undefined, {
      [KEYS]: () => json(200, keyPage([apiKeyOf({ expires_at: '2030-06-01T12:00:00.000Z', rate_limit_per_minute: 300 })])),
      [`PATCH /api/organizations/${OWN_ORG_ID}/api-keys/${KEY_ID}`]: () => json(200, { api_key: apiKeyOf({ name: 'Renamed' }) }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `${k.edit} Production runtime` }));
    const dialog = await screen.findByRole('dialog', { name: k.editTitle('Production runtime') });
    expect(within(dialog).getByLabelText(k.rateLimit)).toHaveValue('300');
    await user.clear(within(dialog).getByLabelText(k.name));
    await user.type(within(dialog).getByLabelText(k.name), 'Renamed');
    await user.clear(within(dialog).getByLabelText(k.expiresOn));
    await user.click(within(dialog).getByRole('button', { name: k.save }));
    expect(await screen.findByText(k.saved('Renamed'))).toBeInTheDocument();
    expect(api.bodiesOf(`PATCH /api/organizations/${OWN_ORG_ID}/api-keys/${KEY_ID}`)).toEqual([{ name: 'Renamed', expires_at: null }]);
  });

  it("shows each key's monthly cap this month, and Edit sets, checks and removes it", async () => {
    const sp = MESSAGES.spendPages;
    const patch = `PATCH /api/organizations/${OWN_ORG_ID}/api-keys/${KEY_ID}`;
    const { api } = renderSettings({ role: 'agency_admin', orgType: 'agency' }, undefined, {
      [KEYS]: () => json(200, keyPage([apiKeyOf({ monthly_cap: { cap: '200.00', month: '2025-03', charged: '12.50' } })])),
      [patch]: () => json(200, { api_key: apiKeyOf() }),
    });
    const table = await screen.findByRole('table', { name: k.title });
    expect(within(table).getByText(sp.capUsed('12.50', '200.00 credits'))).toBeInTheDocument();

    const user = userEvent.setup();
    const edit = async () => {
      await user.click(screen.getByRole('button', { name: `${k.edit} Production runtime` }));
      const dialog = await screen.findByRole('dialog', { name: k.editTitle('Production runtime') });
      return { dialog, cap: within(dialog).getByLabelText(sp.keyCapLabel) };
    };
    let { dialog, cap } = await edit();
    expect(cap).toHaveValue('200.00');
    await user.clear(cap);
    await user.type(cap, '1.234');
    await user.click(within(dialog).getByRole('button', { name: k.save }));
    expect(await within(dialog).findByText(MESSAGES.spend.capInvalid)).toBeInTheDocument();
    expect(cap).toHaveAttribute('aria-invalid', 'true');
    await user.clear(cap);
    await user.type(cap, '250');
    await user.click(within(dialog).getByRole('button', { name: k.save }));
    await waitFor(() => expect(api.bodiesOf(patch)).toEqual([{ monthly_cap: '250.00' }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    ({ dialog, cap } = await edit());
    await user.clear(cap);
    await user.click(within(dialog).getByRole('button', { name: k.save }));
    await waitFor(() => expect(api.bodiesOf(patch)).toHaveLength(2));
    expect(api.bodiesOf(patch)[1]).toEqual({ monthly_cap: null });
  });

  it("shows a key's day and week caps beside the month's, and Edit sends only the one changed", async () => {
    const sp = MESSAGES.spendPages;
    const patch = `PATCH /api/organizations/${OWN_ORG_ID}/api-keys/${KEY_ID}`;
    const { api } = renderSettings({ role: 'agency_admin', orgType: 'agency' }, undefined, {
      [KEYS]: () => json(200, keyPage([apiKeyOf({ daily_cap: { cap: '5.00', window_start: '2025-03-14', charged: '1.25' } })])),
      [patch]: () => json(200, { api_key: apiKeyOf() }),
    });
    const table = await screen.findByRole('table', { name: k.title });
    expect(within(table).getByText(sp.windowCapUsed('day', '1.25', '5.00 credits'))).toBeInTheDocument();
    expect(within(table).queryByTestId('cap-week')).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: `${k.edit} Production runtime` }));
    const dialog = await screen.findByRole('dialog', { name: k.editTitle('Production runtime') });
    expect(within(dialog).getByLabelText(sp.keyDailyCapLabel)).toHaveValue('5.00');
    await user.type(within(dialog).getByLabelText(sp.keyWeeklyCapLabel), '20');
    await user.click(within(dialog).getByRole('button', { name: k.save }));
    await waitFor(() => expect(api.bodiesOf(patch)).toEqual([{ weekly_cap: '20.00' }]));
  });

  it('filters by state and loads more by cursor', async () => {
    const key = (n: number, overrides = {}) => apiKeyOf({ id: `00000000-0000-4000-8000-00000000010${n}`, name: `Key ${n}`, ...overrides });
    const { api } = renderSettings({ role: 'agency_admin', orgType: 'agency' }, undefined, {
      [KEYS]: ({ query }) =>
        query.state === 'revoked'
          ? json(200, keyPage([key(9, { state: 'revoked', revoked_at: '2025-03-03T00:00:00.000Z' })]))
          : query.cursor === 'l:next'
            ? json(200, keyPage([key(2)]))
            : json(200, keyPage([key(1)], 'l:next')),
    });
    const user = userEvent.setup();
    expect(await screen.findByRole('row', { name: /Key 1/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: k.loadMore }));
    expect(await screen.findByRole('row', { name: /Key 2/ })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /Key 1/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: k.loadMore })).not.toBeInTheDocument();
    expect(api.queriesOf(KEYS).map((q) => q.cursor ?? null)).toEqual([null, 'l:next']);

    await user.selectOptions(screen.getByLabelText(k.filterLabel), k.filters.revoked);
    expect(await screen.findByRole('row', { name: /Key 9/ })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('row', { name: /Key 1/ })).not.toBeInTheDocument());
    expect(api.queriesOf(KEYS).at(-1)).toMatchObject({ state: 'revoked' });
  });

  it('says Expiring only for a key whose own end is near, counts one use in the singular, and tells a tenant of no organizations below it', async () => {
    const soon = new Date(Date.now() + 2 * 86_400_000).toISOString();
    renderSettings({ role: 'tenant_admin', orgType: 'tenant' }, undefined, {
      [KEYS]: () =>
        json(
          200,
          keyPage([
            apiKeyOf({ name: 'Ending', state: 'expiring', expires_at: soon, use_count: 1 }),
            apiKeyOf({ id: '00000000-0000-4000-8000-0000000000d2', name: 'Busy', use_count: 2 }),
          ]),
        ),
    });
    const ending = await screen.findByRole('row', { name: /Ending/ });
    expect(within(ending).getByText(k.states.expiring)).toBeInTheDocument();
    expect(ending).toHaveTextContent('1 use · limit Default');
    expect(ending).not.toHaveTextContent('1 uses');
    expect(screen.getByRole('row', { name: /Busy/ })).toHaveTextContent('2 uses · limit Default');
    expect(screen.getByText(/Agent runtimes use these keys/)).not.toHaveTextContent('organizations below it');
  });

  it("tells a seller's admins that its keys report for the organizations below it too", async () => {
    renderSettings({ role: 'agency_admin', orgType: 'agency' });
    expect(await screen.findByText(/Agent runtimes use these keys/)).toHaveTextContent('and the organizations below it');
  });
});
