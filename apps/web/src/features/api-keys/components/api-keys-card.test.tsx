import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeyOf, KEY_ID } from '@/test/api-key-data';
import { billingOf, OWN_ORG_ID } from '@/test/billing-data';
import { ledgerPage } from '@/test/credit-data';
import { json, makeSession, mockApi, renderApp, setViewportWidth } from '@/test/helpers';
import { MESSAGES } from '@/lib/wording';
import { KEYS, LEDGER, renderSettings } from '@/test/settings-data';

const k = MESSAGES.apiKeyPages;
const t = MESSAGES.thresholdPages;

// The card is shown on /settings, where the app composes it into the settings page.
beforeAll(() => Promise.all([import('@/app/shell/app-shell'), import('@/app/settings-route')]), 30_000);

describe('settings: API keys', { timeout: 20_000 }, () => {
  it("lists the organization's keys for its admins: name, prefix, scopes, creator, created, last used and uses", async () => {
    renderSettings({ role: 'agency_admin', orgType: 'agency' }, undefined, {
      [KEYS]: () =>
        json(200, {
          api_keys: [
            apiKeyOf({ last_used_at: '2025-03-02T09:30:00.000Z', use_count: 1234 }),
            apiKeyOf({
              id: '00000000-0000-4000-8000-0000000000d2',
              name: 'Old runtime',
              prefix: 'oc_99aa88bb',
              scopes: ['entitlements:read'],
              revoked_at: '2025-03-03T00:00:00.000Z',
            }),
          ],
        }),
    });
    const table = await screen.findByRole('table', { name: k.title });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Prefix', 'Scopes', 'Created by', 'Created', 'Last used', 'Uses', 'Actions']);
    const [first, second] = within(table).getAllByRole('row').slice(1);
    const cells = within(first!)
      .getAllByRole('cell')
      .map((td) => td.textContent);
    expect(cells.slice(0, 4)).toEqual(['Production runtime', 'oc_1a2b3c4d', 'Report usageReport status', 'Alice Admin']);
    expect(cells[5]).toMatch(/^Mar 2, 2025/);
    expect(cells[6]).toBe('1,234');
    expect(within(first!).getByRole('button', { name: `${k.revoke} Production runtime` })).toBeInTheDocument();
    expect(within(second!).getByText(k.revokedBadge)).toBeInTheDocument();
    expect(within(second!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(second!).getByText(k.neverUsed)).toBeInTheDocument();
  });

  it("shows a frozen organization's admins their keys without Create key or Revoke", async () => {
    const session = makeSession({ role: 'agency_admin', orgType: 'agency' });
    session.user.organization = { ...session.user.organization, status: 'suspended' };
    mockApi({
      'GET /api/users/me': () => json(200, session.user),
      [`GET /api/organizations/${OWN_ORG_ID}/billing`]: () => json(200, billingOf()),
      [LEDGER]: () => json(200, ledgerPage([])),
      [KEYS]: () => json(200, { api_keys: [apiKeyOf()] }),
    });
    renderApp('/settings', { session });
    expect(await screen.findByRole('row', { name: /Production runtime/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: k.create })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `${k.revoke} Production runtime` })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t.change })).not.toBeInTheDocument();
  });

  it('shows each key as a card with Revoke on a narrow screen', async () => {
    setViewportWidth(390);
    try {
      renderSettings({ role: 'agency_admin', orgType: 'agency' }, undefined, {
        [KEYS]: () => json(200, { api_keys: [apiKeyOf({ use_count: 7 })] }),
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
      [KEYS]: () => json(200, { api_keys: keys }),
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
      [KEYS]: () => json(200, { api_keys: [apiKeyOf({ revoked_at: revoked ? '2025-03-04T00:00:00.000Z' : null })] }),
      [`DELETE /api/organizations/${OWN_ORG_ID}/api-keys/${KEY_ID}`]: () => {
        revoked = true;
        return json(200, { api_key: apiKeyOf({ revoked_at: '2025-03-04T00:00:00.000Z' }) });
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
});
