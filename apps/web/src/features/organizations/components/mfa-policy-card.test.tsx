import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MfaPolicyView } from '@console/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, makeSession, mockApi, OWN_ORG_ID, renderApp } from '@/test/helpers';
import { makeOrganization } from '@/test/organization-data';
import { MESSAGES } from '../wording';

const w = MESSAGES.mfaPolicy;

beforeAll(async () => {
  await Promise.all([import('../pages/organization-detail-page'), import('@/app/shell/app-shell')]);
});

const tenant = makeOrganization({ id: OWN_ORG_ID, name: 'Acme Corporation', org_type: 'tenant' });
const view = (over: Partial<MfaPolicyView> = {}): MfaPolicyView => ({
  organization_id: OWN_ORG_ID,
  policy: { require_own: false, require_subtree: false, require_admins: false, grace_days: 7, updated_at: null, updated_by_email: null },
  inherited: [],
  coverage: { covered: 0, not_enrolled: 0, people: [], truncated: false },
  ...over,
});

describe('second-factor policy card', { timeout: 30_000 }, () => {
  it("shows an ancestor's requirement locked on, who is covered with their deadline, and saves the admin's choice", async () => {
    const inherited = view({
      inherited: [
        {
          organization_id: '00000000-0000-4000-8000-0000000000b1',
          organization_name: 'Northwind Agency',
          org_type: 'agency',
          kind: 'subtree',
          grace_days: 2,
          since: '2099-01-01T00:00:00Z',
        },
      ],
      coverage: {
        covered: 2,
        not_enrolled: 1,
        truncated: false,
        people: [
          {
            id: '00000000-0000-4000-8000-0000000000c1',
            email: 'bo@example.test',
            name: 'Bo Lee',
            role: 'tenant_user',
            enrolled: false,
            deadline: '2099-01-03T00:00:00Z',
          },
          {
            id: '00000000-0000-4000-8000-0000000000c2',
            email: 'al@example.test',
            name: null,
            role: 'tenant_admin',
            enrolled: true,
            deadline: null,
          },
        ],
      },
    });
    const api = mockApi((call) => {
      if (call.path === `/api/organizations/${OWN_ORG_ID}`) return json(200, { organization: tenant });
      if (call.method === 'GET' && call.path === `/api/organizations/${OWN_ORG_ID}/mfa-policy`) return json(200, inherited);
      if (call.method === 'PUT' && call.path === `/api/organizations/${OWN_ORG_ID}/mfa-policy`)
        return json(200, { ...inherited, policy: { ...inherited.policy, ...(call.body as object) } });
      return undefined;
    });
    renderApp(`/orgs/${OWN_ORG_ID}`, { session: makeSession({ role: 'tenant_admin' }) });

    const form = await screen.findByRole('form', { name: w.title });
    expect(within(form).getByText(w.inherited('Northwind Agency', 'subtree', 2))).toBeInTheDocument();
    const own = within(form).getByRole('switch', { name: w.requireOwn });
    expect(own).toBeChecked();
    expect(own).toBeDisabled();
    // Only the house requires it of every admin.
    expect(within(form).queryByRole('switch', { name: w.requireAdmins })).not.toBeInTheDocument();
    expect(screen.getByText(w.coverageSummary(2, 1))).toBeInTheDocument();
    expect(screen.getByText('Bo Lee')).toBeInTheDocument();
    expect(screen.getByText(w.dueBy('Jan 3, 2099'))).toBeInTheDocument();
    expect(screen.getByText(w.enrolled)).toBeInTheDocument();

    const grace = within(form).getByLabelText(w.graceDaysLabel);
    await userEvent.clear(grace);
    await userEvent.type(grace, '1');
    await userEvent.click(within(form).getByRole('button', { name: w.save }));
    expect(await screen.findByText(w.saved)).toBeInTheDocument();
    expect(api.bodiesOf(`PUT /api/organizations/${OWN_ORG_ID}/mfa-policy`)).toEqual([
      { require_own: false, require_subtree: false, require_admins: false, grace_days: 1 },
    ]);
  });

  it("is not shown to someone who is not the organization's admin", async () => {
    const api = mockApi((call) => (call.path === `/api/organizations/${OWN_ORG_ID}` ? json(200, { organization: tenant }) : undefined));
    renderApp(`/orgs/${OWN_ORG_ID}`, { session: makeSession({ role: 'tenant_manager' }) });
    await screen.findByRole('heading', { level: 1, name: 'Acme Corporation' });
    expect(screen.queryByRole('form', { name: w.title })).not.toBeInTheDocument();
    expect(api.callsTo(`GET /api/organizations/${OWN_ORG_ID}/mfa-policy`)).toEqual([]);
  });
});
