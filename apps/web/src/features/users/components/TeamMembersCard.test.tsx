import { MESSAGES } from '@console/domain';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/providers';
import { createQueryClient } from '@/lib/query-client';
import { sessionStore } from '@/lib/session-store';
import { json, makeSession } from '@/test/helpers';
import { callsTo, CHILD_ORG, makeUser, mockApi, OWN_ORG, page } from '../test/fixtures';
import { TeamMembersCard } from './TeamMembersCard';

const t = MESSAGES.teamPages;

function renderCard(props: { organizationId: string; disableParentInvites?: boolean }, role = 'agency_admin') {
  sessionStore.set(makeSession({ role, orgType: 'agency' }));
  return render(
    <MemoryRouter>
      <AppProviders queryClient={createQueryClient()}>
        <TeamMembersCard
          organizationId={props.organizationId}
          organizationName="Child Tenant"
          disableParentInvites={props.disableParentInvites ?? false}
        />
      </AppProviders>
    </MemoryRouter>,
  );
}

const child = (disable: boolean) =>
  json(200, { organization: { id: CHILD_ORG, name: 'Child Tenant', org_type: 'tenant', parent_org_id: OWN_ORG, disable_parent_invites: disable } });

describe('team members card', { timeout: 20_000 }, () => {
  it('lists the first 5 members with View All when there are more, and Invite for a child that allows it', async () => {
    const users = Array.from({ length: 5 }, () => makeUser());
    const fetchMock = mockApi({
      'GET /api/users': () => page('users', users, { pageSize: 5, total: 7 }),
      [`GET /api/organizations/${CHILD_ORG}`]: () => child(false),
    });
    renderCard({ organizationId: CHILD_ORG });
    expect(await screen.findByText(users[4]!.email)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t.viewAll })).toHaveAttribute('href', `/users?organization_id=${CHILD_ORG}`);
    expect(await screen.findByRole('link', { name: t.inviteUser })).toHaveAttribute(
      'href',
      `/users/create?organization_id=${CHILD_ORG}&organization_name=Child+Tenant`,
    );
    const [url] = callsTo(fetchMock, 'GET /api/users');
    expect(url!.searchParams.get('organization_id')).toBe(CHILD_ORG);
    expect(url!.searchParams.get('page_size')).toBe('5');
  });

  it('has no View All at 5 or fewer and no Invite when the child disables parent invites', async () => {
    mockApi({
      'GET /api/users': () => page('users', [makeUser({ email: 'only@example.test' })], { pageSize: 5 }),
      [`GET /api/organizations/${CHILD_ORG}`]: () => child(true),
    });
    renderCard({ organizationId: CHILD_ORG, disableParentInvites: true });
    expect(await screen.findByText('only@example.test')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: t.viewAll })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: t.inviteUser })).not.toBeInTheDocument();
  });

  it('offers Invite for the own organization to admins only', async () => {
    mockApi({ 'GET /api/users': () => page('users', [makeUser({ email: 'own@example.test' })], { pageSize: 5 }) });
    renderCard({ organizationId: OWN_ORG });
    expect(await screen.findByRole('link', { name: t.inviteUser })).toBeInTheDocument();
  });

  it('renders nothing without users.read', async () => {
    const fetchMock = mockApi({});
    renderCard({ organizationId: OWN_ORG }, 'unknown_role');
    expect(screen.queryByText(t.teamCardTitle)).not.toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
