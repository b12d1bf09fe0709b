import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '@/lib/session-store';
import { makeSession, mockApi, renderWithProviders } from '@/test/helpers';
import { CHILD_ORG, makeInvitation, makeUser, OWN_ORG, page } from '@/test/user-data';
import { TeamMembersCard } from './team-members-card';
import { MESSAGES } from '@/lib/wording';

const t = MESSAGES.teamPages;
const noInvitations = { 'GET /api/invitations': () => page('invitations', [], { pageSize: 1 }) };

function renderCard({ id, disableParentInvites = false }: { id: string; disableParentInvites?: boolean }, role = 'agency_admin') {
  sessionStore.set(makeSession({ role, orgType: 'agency' }));
  const parent = id === OWN_ORG ? null : OWN_ORG;
  return renderWithProviders(
    <TeamMembersCard organization={{ id, name: 'Child Tenant', parent_org_id: parent, disable_parent_invites: disableParentInvites }} />,
  );
}

describe('team members card', { timeout: 20_000 }, () => {
  it('lists the first 5 members with View All when there are more, and Invite for a child that allows it', async () => {
    const users = Array.from({ length: 5 }, () => makeUser());
    const api = mockApi({ ...noInvitations, 'GET /api/users': () => page('users', users, { pageSize: 5, total: 7 }) });
    renderCard({ id: CHILD_ORG });
    expect(await screen.findByText(users[4]!.email)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t.viewAll })).toHaveAttribute('href', `/users?organization_id=${CHILD_ORG}`);
    expect(await screen.findByRole('link', { name: t.inviteUser })).toHaveAttribute(
      'href',
      `/users/create?organization_id=${CHILD_ORG}&organization_name=Child+Tenant`,
    );
    const [query] = api.queriesOf('GET /api/users');
    expect(query!.organization_id).toBe(CHILD_ORG);
    expect(query!.page_size).toBe('5');
  });

  it('shows at most 5 members however many the answer holds, with View All since the organization has more', async () => {
    const users = Array.from({ length: 7 }, () => makeUser());
    mockApi({ ...noInvitations, 'GET /api/users': () => page('users', users, { pageSize: 10, total: 7 }) });
    renderCard({ id: CHILD_ORG });
    expect(await screen.findByText(users[4]!.email)).toBeInTheDocument();
    expect(screen.queryByText(users[5]!.email)).not.toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(5);
    expect(screen.getByRole('link', { name: t.viewAll })).toHaveAttribute('href', `/users?organization_id=${CHILD_ORG}`);
  });

  it('has no View All at 5 or fewer and no Invite when the child disables parent invites', async () => {
    mockApi({ ...noInvitations, 'GET /api/users': () => page('users', [makeUser({ email: 'only@example.test' })], { pageSize: 5 }) });
    renderCard({ id: CHILD_ORG, disableParentInvites: true });
    expect(await screen.findByText('only@example.test')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: t.viewAll })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: t.inviteUser })).not.toBeInTheDocument();
  });

  it('counts the pending invitations it does not list, with the way to them on the Users panel', async () => {
    const api = mockApi({
      'GET /api/users': () => page('users', [makeUser({ email: 'one@example.test' })], { pageSize: 5 }),
      'GET /api/invitations': () => page('invitations', [makeInvitation()], { pageSize: 1, total: 3 }),
    });
    renderCard({ id: CHILD_ORG });
    expect(await screen.findByRole('link', { name: t.pendingInvitations(3) })).toHaveAttribute(
      'href',
      `/users?organization_id=${CHILD_ORG}&status=pending`,
    );
    const [query] = api.queriesOf('GET /api/invitations');
    expect(query).toMatchObject({ organization_id: CHILD_ORG, status: 'pending', page_size: '1' });
  });

  it('says nothing of invitations when none waits', async () => {
    mockApi({ ...noInvitations, 'GET /api/users': () => page('users', [makeUser({ email: 'one@example.test' })], { pageSize: 5 }) });
    renderCard({ id: CHILD_ORG });
    expect(await screen.findByText('one@example.test')).toBeInTheDocument();
    expect(screen.queryByText(/pending invitation/)).not.toBeInTheDocument();
  });

  it('offers Invite for the own organization to those who may invite', async () => {
    mockApi({ ...noInvitations, 'GET /api/users': () => page('users', [makeUser({ email: 'own@example.test' })], { pageSize: 5 }) });
    renderCard({ id: OWN_ORG });
    expect(await screen.findByRole('link', { name: t.inviteUser })).toBeInTheDocument();
  });

  it('renders nothing to a role that may not list people', async () => {
    const api = mockApi({});
    renderCard({ id: OWN_ORG }, 'unknown_role');
    expect(screen.queryByText(t.teamCardTitle)).not.toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(api.fetch).not.toHaveBeenCalled();
  });
});
