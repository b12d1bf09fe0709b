import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatCountdown } from '@/components/debug/jwt-debug-card';
import { json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { makeList } from '@/test/organization-data';
import { MESSAGES } from '../wording';
import { formatDateTime } from '@/lib/dates';

const d = MESSAGES.debugPages;
const ORG_ID = '00000000-0000-4000-8000-000000000001';
const CHILDREN_BY_STATUS: Record<string, number> = { active: 4, inactive: 2, suspended: 1 };

describe('debug page', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    configure({ asyncUtilTimeout: 15_000 });
    await Promise.all([import('./debug-page'), import('@/app/shell/app-shell')]);
  });

  it('refuses a tenant admin and calls nothing', async () => {
    const session = makeSession({ role: 'tenant_admin', orgType: 'tenant' });
    const api = mockApi({ 'GET /api/users/me': () => json(200, session.user) });
    renderApp('/debug', { session });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.organizations.debugOnly)).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(api.calls.map((call) => call.path).filter((path) => path !== '/api/users/me')).toEqual([]);
  });

  it('decodes the token, counts its expiry down every second and verifies the role', async () => {
    const session = makeSession({ role: 'agency_admin', orgType: 'agency', orgName: 'Northwind' });
    mockApi({ 'GET /api/users/me': () => json(200, session.user) });
    renderApp('/debug', { session });
    expect(await screen.findByRole('heading', { level: 1, name: MESSAGES.shell.debugTitle })).toBeInTheDocument();
    expect(screen.getByLabelText('Header')).toHaveTextContent('"alg": "HS256"');
    expect(screen.getByLabelText('Claims')).toHaveTextContent('"org_name": "Northwind"');
    expect(screen.getByLabelText('Normalized claims')).toHaveTextContent('"role": "agency_admin"');
    const expiresIn = screen.getByTestId('token-expires-in');
    expect(expiresIn.textContent).toMatch(/^1[45]:\d\d$/);
    const first = expiresIn.textContent;
    await waitFor(() => expect(screen.getByTestId('token-expires-in').textContent).not.toBe(first), { timeout: 3000 });

    expect(await screen.findByText(d.verified)).toBeInTheDocument();
    expect(screen.getByTestId('token-role')).toHaveTextContent('agency_admin');
    expect(screen.getByTestId('database-role')).toHaveTextContent('agency_admin');
    // Only house admins read the outbox.
    expect(screen.queryByRole('tab', { name: d.tabOutbox })).not.toBeInTheDocument();
  });

  it('shows Role Mismatch when the database holds another role than the token', async () => {
    const session = makeSession({ role: 'super_agency_admin', orgType: 'super_agency' });
    mockApi({ 'GET /api/users/me': () => json(200, { ...session.user, role: 'super_agency_manager' }) });
    renderApp('/debug', { session });
    expect(await screen.findByText(d.roleMismatch)).toBeInTheDocument();
    expect(screen.getByTestId('token-role')).toHaveTextContent('super_agency_admin');
    expect(screen.getByTestId('database-role')).toHaveTextContent('super_agency_manager');
  });

  it('counts active children by default, all with the toggle, and verifies children on demand', async () => {
    const session = makeSession({ role: 'agency_admin', orgType: 'agency' });
    let verifications = 0;
    const api = mockApi({
      'GET /api/users/me': () => json(200, session.user),
      'GET /api/organizations': ({ query }) => json(200, makeList([], { total: CHILDREN_BY_STATUS[query.status!], page_size: 10 })),
      [`GET /api/organizations/${ORG_ID}/verify-children`]: () => {
        verifications += 1;
        return json(200, {
          parentOrganization: { id: ORG_ID, name: 'Acme Corporation', org_type: 'agency' },
          childOrganizations: [{ id: '00000000-0000-4000-8000-0000000000c1', name: 'Tenant A', org_type: 'tenant', status: 'active' }],
          summary: { directChildrenCount: 1, rpcReturnedIds: 2, childOrgsRetrieved: 1 },
        });
      },
    });
    renderApp('/debug', { session });
    await userEvent.click(await screen.findByRole('tab', { name: d.tabOrganizations }));
    expect(await screen.findByTestId('children-active')).toHaveTextContent('4');
    expect(screen.queryByTestId('children-inactive')).not.toBeInTheDocument();
    expect(api.queriesOf('GET /api/organizations')).toEqual([
      { view: 'children', organization_id: ORG_ID, status: 'active', page_size: '10' },
    ]);

    await userEvent.click(screen.getByRole('switch', { name: d.includeAll }));
    expect(await screen.findByTestId('children-inactive')).toHaveTextContent('2');
    expect(screen.getByTestId('children-suspended')).toHaveTextContent('1');
    expect(screen.getByTestId('children-total')).toHaveTextContent('7');

    expect(verifications).toBe(0);
    expect(screen.getByRole('button', { name: d.refresh })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: d.verify }));
    expect(await screen.findByTestId('verify-direct')).toHaveTextContent('1');
    expect(screen.getByTestId('verify-rpc')).toHaveTextContent('2');
    expect(screen.getByRole('cell', { name: 'Tenant A' })).toBeInTheDocument();
    expect(verifications).toBe(1);
    await userEvent.click(screen.getByRole('button', { name: d.refresh }));
    await waitFor(() => expect(verifications).toBe(2));
  });

  it('lists what the claim parser read from where', async () => {
    const session = makeSession({ role: 'house_admin', orgType: 'house' });
    mockApi({ 'GET /api/users/me': () => json(200, session.user), 'GET /api/debug/outbox': () => json(200, { messages: [] }) });
    renderApp('/debug', { session });
    await userEvent.click(await screen.findByRole('tab', { name: d.tabParsingLogs }));
    const table = screen.getByRole('table', { name: 'Claim parsing log' });
    const roleRow = within(table)
      .getAllByRole('row')
      .find((row) => row.textContent?.startsWith('role'));
    expect(roleRow).toHaveTextContent('app_metadata.role');
    expect(roleRow).toHaveTextContent('house_admin');
  });

  it('shows the outbox to a house admin', async () => {
    const session = makeSession({ role: 'house_admin', orgType: 'house' });
    mockApi({
      'GET /api/users/me': () => json(200, session.user),
      'GET /api/debug/outbox': () =>
        json(200, {
          messages: [
            {
              id: '1',
              to: 'new.person@example.test',
              subject: 'You are invited',
              text: 'Hello',
              link: 'http://console.test/invitation?token=abc',
              created_at: '2025-03-10T12:00:00.000Z',
            },
          ],
        }),
    });
    renderApp('/debug', { session });
    await userEvent.click(await screen.findByRole('tab', { name: d.tabOutbox }));
    const table = await screen.findByRole('table', { name: 'Outbox messages' });
    expect(within(table).getByText('new.person@example.test')).toBeInTheDocument();
    expect(within(table).getByText('You are invited')).toBeInTheDocument();
    // Written as every other date of the console, not in the browser's own format.
    expect(within(table).getByText(formatDateTime('2025-03-10T12:00:00.000Z'))).toBeInTheDocument();
    expect(formatDateTime('2025-03-10T12:00:00.000Z')).toMatch(/^Mar 10, 2025 \d{1,2}:\d{2} (AM|PM)$/);
    expect(within(table).getByRole('link', { name: 'http://console.test/invitation?token=abc' })).toHaveAttribute(
      'href',
      'http://console.test/invitation?token=abc',
    );
  });
});

describe('formatCountdown', () => {
  it('shows minutes and seconds, hours when needed', () => {
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(65)).toBe('1:05');
    expect(formatCountdown(899)).toBe('14:59');
    expect(formatCountdown(3725)).toBe('1:02:05');
  });
});
