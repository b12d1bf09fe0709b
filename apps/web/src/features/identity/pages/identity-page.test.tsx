import { MESSAGES as DOMAIN_MESSAGES, identityViewSchema, type IdentityView } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiError, json } from '@/test/helpers';
import { DOMAIN_ID, domainOf, IDENTITY_PATHS, identityViewOf, PROVIDER, renderIdentity } from '@/test/identity-data';
import { renderSettings } from '@/test/settings-data';
import { formatDateTime } from '@/lib/dates';
import { browser } from '@/lib/reload';
import { MESSAGES } from '../wording';

const w = MESSAGES.identityPages;
const p = w.provider;
const d = w.domains;
const admin = { role: 'tenant_admin', orgType: 'tenant', orgName: 'Acme Corporation' } as const;
const houseAdmin = { role: 'house_admin', orgType: 'house', orgName: 'House' } as const;

beforeAll(() => Promise.all([import('./identity-page'), import('@/app/shell/app-shell'), import('@/app/settings-route')]), 30_000);

/** The fixtures are what the server answers: each passes the contract's schema. */
const valid = (view: IdentityView) => identityViewSchema.parse(view);

describe('Settings > Identity: who sees it', { timeout: 20_000 }, () => {
  it("is a card of Settings for the organization's admins, leading to the page under Settings", async () => {
    renderSettings(admin);
    const link = await screen.findByRole('link', { name: w.settingsLink });
    expect(link).toHaveAttribute('href', '/settings/identity');
  });

  it('is not offered to people who are not admins', async () => {
    renderSettings({ role: 'tenant_user' });
    await screen.findByRole('heading', { level: 1, name: MESSAGES.shell.nav.settings });
    expect(screen.queryByRole('link', { name: w.settingsLink })).not.toBeInTheDocument();
  });

  it('sends people who are not admins from the page to the dashboard, asking nothing of it', async () => {
    const api = renderIdentity({ role: 'tenant_manager' }, undefined, { 'GET /api/dashboard': () => apiError(404, 'not_found', 'x') });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
    expect(api.callsTo(IDENTITY_PATHS.view)).toHaveLength(0);
  });

  it('shows a frozen organization its settings without a way to change them', async () => {
    renderIdentity(admin, () => valid(identityViewOf({ provider: PROVIDER, domains: [domainOf()] })), {}, { status: 'suspended' });
    expect(await screen.findByText(w.readOnly)).toBeInTheDocument();
    expect(await screen.findByLabelText(p.issuer)).toBeDisabled();
    expect(screen.queryByRole('button', { name: p.save })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: p.test })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `${d.verify} acme.example` })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: w.scim.create })).not.toBeInTheDocument();
  });
});

describe('Settings > Identity: the provider', { timeout: 20_000 }, () => {
  it('shows the redirect URI to register, with Copy, and the page under Settings', async () => {
    renderIdentity(admin);
    expect(await screen.findByRole('heading', { level: 1, name: w.title })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent(`Settings${w.title}`);
    expect(await screen.findByText(identityViewOf().redirect_uri)).toBeInTheDocument();
    expect(screen.getByTestId('provider-status')).toHaveTextContent(p.none);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: w.copyAria(p.redirectUriName) }));
    expect(await navigator.clipboard.readText()).toBe(identityViewOf().redirect_uri);
    // The client secret is asked for a new provider; Test and Remove wait for one.
    expect(screen.getByLabelText(p.clientSecret)).toHaveAccessibleDescription(p.clientSecretNew);
    expect(screen.queryByRole('button', { name: p.test })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: p.remove })).not.toBeInTheDocument();
  });

  it('checks the form as the server does, registers the provider, and shows the server refusal beside its field', async () => {
    let view = identityViewOf();
    let refuse = true;
    const api = renderIdentity(admin, () => view, {
      [IDENTITY_PATHS.setProvider]: () => {
        if (refuse) {
          refuse = false;
          return json(422, {
            error: {
              code: 'validation_error',
              message: DOMAIN_MESSAGES.identity.issuerUnreachable('timeout'),
              fields: { issuer: DOMAIN_MESSAGES.identity.issuerUnreachable('timeout') },
            },
          });
        }
        view = valid({ ...view, provider: PROVIDER });
        return json(200, view);
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: p.save }));
    expect(await screen.findByText(DOMAIN_MESSAGES.identity.issuerInvalid)).toBeInTheDocument();
    expect(screen.getByText(DOMAIN_MESSAGES.identity.clientIdRequired)).toBeInTheDocument();
    expect(screen.getByText(DOMAIN_MESSAGES.identity.clientSecretRequired)).toBeInTheDocument();
    expect(api.callsTo(IDENTITY_PATHS.setProvider)).toHaveLength(0);

    await user.type(screen.getByLabelText(p.issuer), 'https://login.acme.example/');
    await user.type(screen.getByLabelText(p.clientId), 'console-client');
    await user.type(screen.getByLabelText(p.clientSecret), 's3cret');
    await user.click(screen.getByRole('button', { name: p.save }));
    expect(await screen.findByText(p.saveFailed)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(p.issuer)).toHaveAccessibleDescription(new RegExp(`${p.issuerHint}.*timeout`)));

    await user.click(screen.getByRole('button', { name: p.save }));
    expect(await screen.findByText(p.saved)).toBeInTheDocument();
    expect(api.bodiesOf(IDENTITY_PATHS.setProvider).at(-1)).toEqual({
      issuer: 'https://login.acme.example',
      client_id: 'console-client',
      client_secret: 's3cret',
      email_claim: 'email',
      name_claim: 'name',
    });
    // Saved: the secret field is blank again and keeps the secret when left so.
    expect(await screen.findByLabelText(p.clientSecret)).toHaveValue('');
    expect(screen.getByLabelText(p.clientSecret)).toHaveAccessibleDescription(p.clientSecretKeep);
    expect(screen.getByTestId('provider-status')).toHaveTextContent(p.notTested);
  });

  it('keeps the secret when changing a provider with the secret left blank', async () => {
    const api = renderIdentity(admin, () => valid(identityViewOf({ provider: PROVIDER })), {
      [IDENTITY_PATHS.setProvider]: () => json(200, identityViewOf({ provider: { ...PROVIDER, name_claim: 'preferred_username' } })),
    });
    const user = userEvent.setup();
    const nameClaim = await screen.findByLabelText(p.nameClaim);
    expect(screen.getByLabelText(p.issuer)).toHaveValue(PROVIDER.issuer);
    await user.clear(nameClaim);
    await user.type(nameClaim, 'preferred_username');
    await user.click(screen.getByRole('button', { name: p.save }));
    await waitFor(() => expect(api.callsTo(IDENTITY_PATHS.setProvider)).toHaveLength(1));
    expect(api.bodiesOf(IDENTITY_PATHS.setProvider)[0]).not.toHaveProperty('client_secret');
    expect(api.bodiesOf(IDENTITY_PATHS.setProvider)[0]).toMatchObject({ name_claim: 'preferred_username' });
  });

  it('starts a test sign-in at the provider, and says how it went on return', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const tested = { ...PROVIDER, tested_at: '2025-03-04T10:00:00.000Z' };
    renderIdentity(admin, () => valid(identityViewOf({ provider: tested })), {
      [IDENTITY_PATHS.test]: () => json(200, { redirect_url: 'https://login.acme.example/authorize?state=t1' }),
    });
    expect(await screen.findByTestId('provider-status')).toHaveTextContent(p.lastTested(formatDateTime(tested.tested_at)));
    await userEvent.setup().click(screen.getByRole('button', { name: p.test }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://login.acme.example/authorize?state=t1'));
    assign.mockRestore();
  });

  it.each([
    ['?test=ok&email=alice%40acme.example', w.testPassedTitle, DOMAIN_MESSAGES.identity.testPassed('alice@acme.example')],
    ['?test_error=refused', w.testFailedTitle, DOMAIN_MESSAGES.identity.signInErrors.refused],
    ['?test_error=invalid_client', w.testFailedTitle, w.testFailedUnknown('invalid_client')],
  ])('on return with %s says so until dismissed', async (search, title, message) => {
    renderIdentity(admin, () => valid(identityViewOf({ provider: PROVIDER })), {}, { path: `/settings/identity${search}` });
    const alert = (await screen.findByText(title)).closest('[role="alert"]') as HTMLElement;
    expect(alert).toHaveTextContent(message);
    await userEvent.setup().click(within(alert).getByRole('button', { name: w.dismiss }));
    await waitFor(() => expect(screen.queryByText(title)).not.toBeInTheDocument());
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/settings\/identity$/);
  });

  it('removes the provider once confirmed', async () => {
    const api = renderIdentity(admin, () => valid(identityViewOf({ provider: PROVIDER })), {
      [IDENTITY_PATHS.removeProvider]: () => json(200, identityViewOf()),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: p.remove }));
    const dialog = await screen.findByRole('alertdialog', { name: p.removeTitle });
    await user.click(within(dialog).getByRole('button', { name: p.remove }));
    expect(await screen.findByText(p.removed)).toBeInTheDocument();
    expect(api.callsTo(IDENTITY_PATHS.removeProvider)).toHaveLength(1);
    expect(await screen.findByTestId('provider-status')).toHaveTextContent(p.none);
  });
});

describe('Settings > Identity: domains', { timeout: 20_000 }, () => {
  it('claims a domain, shows the TXT record to publish, and what Verify now found', async () => {
    let view = identityViewOf();
    const api = renderIdentity(admin, () => view, {
      [IDENTITY_PATHS.claim]: () => {
        view = valid({ ...view, domains: [domainOf()] });
        return json(201, view);
      },
      [IDENTITY_PATHS.verify(DOMAIN_ID)]: () => {
        const found = DOMAIN_MESSAGES.identity.domainNotVerified('_console-verification.acme.example');
        view = { ...view, domains: [domainOf({ checked_at: '2025-03-04T10:00:00.000Z', check_error: found })] };
        return apiError(422, 'domain_not_verified', found);
      },
    });
    const user = userEvent.setup();
    const field = await screen.findByLabelText(d.domain);
    await user.type(field, 'not a domain');
    await user.click(screen.getByRole('button', { name: d.claim }));
    expect(await screen.findByText(DOMAIN_MESSAGES.identity.domainInvalid)).toBeInTheDocument();
    expect(api.callsTo(IDENTITY_PATHS.claim)).toHaveLength(0);

    await user.clear(field);
    await user.type(field, 'Acme.Example');
    await user.click(screen.getByRole('button', { name: d.claim }));
    const list = await screen.findByRole('list', { name: d.listLabel });
    expect(api.bodiesOf(IDENTITY_PATHS.claim)).toEqual([{ domain: 'acme.example' }]);
    const row = within(list).getByRole('listitem', { name: 'acme.example' });
    expect(row).toHaveTextContent(d.states.pending);
    expect(row).toHaveTextContent('_console-verification.acme.example');
    expect(row).toHaveTextContent('console-verification=3f2a9c7d1e');
    await user.click(within(row).getByRole('button', { name: w.copyAria(d.recordValueOf('acme.example')) }));
    expect(await navigator.clipboard.readText()).toBe('console-verification=3f2a9c7d1e');

    await user.click(within(row).getByRole('button', { name: `${d.verify} acme.example` }));
    expect(await within(row).findByText(d.notYet('acme.example'))).toBeInTheDocument();
    expect(row).toHaveTextContent(DOMAIN_MESSAGES.identity.domainNotVerified('_console-verification.acme.example'));
    expect(await within(row).findByText(d.lastChecked(formatDateTime('2025-03-04T10:00:00.000Z')))).toBeInTheDocument();
  });

  it('shows a verified claim, and withdraws it once confirmed', async () => {
    const verified = domainOf({ state: 'verified', verified_at: '2025-03-04T10:00:00.000Z' });
    const api = renderIdentity(admin, () => valid(identityViewOf({ domains: [verified] })), {
      [IDENTITY_PATHS.removeDomain(DOMAIN_ID)]: () => json(200, identityViewOf()),
    });
    const row = await screen.findByRole('listitem', { name: 'acme.example' });
    expect(row).toHaveTextContent(d.states.verified);
    expect(row).toHaveTextContent(d.verifiedOn(formatDateTime('2025-03-04T10:00:00.000Z')));
    expect(within(row).queryByText('console-verification=3f2a9c7d1e')).not.toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Verify now/ })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: `${d.withdraw} acme.example` }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: d.withdraw }));
    expect(await screen.findByText(d.none)).toBeInTheDocument();
    expect(api.callsTo(IDENTITY_PATHS.removeDomain(DOMAIN_ID))).toHaveLength(1);
  });

  it("offers Approve by hand to a house admin for the house's own pending claim, and to no one else", async () => {
    let view = identityViewOf({ jit_roles: ['house_user'], domains: [domainOf()] });
    const api = renderIdentity(houseAdmin, () => valid(view), {
      [IDENTITY_PATHS.approve(DOMAIN_ID)]: () => {
        view = { ...view, domains: [domainOf({ state: 'approved', approved_at: '2025-03-04T10:00:00.000Z', approved_by: 'Hank House' })] };
        return json(200, { ok: true });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `${d.approve} acme.example` }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: d.approveTitle('acme.example') })).getByRole('button', { name: d.approve }),
    );
    expect(await screen.findByText(d.approvedOn(formatDateTime('2025-03-04T10:00:00.000Z'), 'Hank House'))).toBeInTheDocument();
    expect(api.callsTo(IDENTITY_PATHS.approve(DOMAIN_ID))).toHaveLength(1);
  });

  it('offers a tenant admin no Approve by hand', async () => {
    renderIdentity(admin, () => valid(identityViewOf({ domains: [domainOf()] })));
    expect(await screen.findByRole('button', { name: `${d.verify} acme.example` })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `${d.approve} acme.example` })).not.toBeInTheDocument();
  });
});
