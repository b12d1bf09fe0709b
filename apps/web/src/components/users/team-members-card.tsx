import { mayInviteTo, mayListPeople, PAGING, roleLabel, type Organization } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { Link } from 'react-router';
import { invitationQueries } from '@/api/invitations';
import { userQueries } from '@/api/users';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { fullName } from '@/lib/format';
import { inviteHref, PATHS, usersHref } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { UserStatusBadge } from './user-status-badge';
import { MESSAGES } from '@/lib/wording';

const t = MESSAGES.teamPages;

/** The organization detail page's team card: the first members, View All and Invite. */
export function TeamMembersCard({
  organization,
}: {
  organization: Pick<Organization, 'id' | 'name' | 'parent_org_id' | 'disable_parent_invites'>;
}) {
  const viewer = useViewer();
  const allowed = !!viewer && mayListPeople(viewer);
  const members = useQuery({
    ...userQueries.list({ organization_id: organization.id, page: 1, page_size: PAGING.teamCardMembers }),
    enabled: allowed,
  });
  // The card lists people only; invitations still waiting are counted, with the way to them
  // (the Users panel lists them under Status: pending), so none is out of sight.
  const invitations = useQuery({
    ...invitationQueries.list({ organization_id: organization.id, status: 'pending', page: 1, page_size: 1 }),
    enabled: allowed,
  });

  if (!allowed) return null;
  // The first members, however many the page asked for holds; View All whenever the organization has more.
  const shown = members.data?.users.slice(0, PAGING.teamCardMembers) ?? [];
  const total = members.data?.pagination.total ?? 0;
  const pending = invitations.data?.pagination.total ?? 0;

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>{t.teamCardTitle}</CardTitle>
        <div className="flex gap-2">
          {mayInviteTo(viewer, organization) && (
            <Button asChild size="sm">
              <Link to={inviteHref(organization)}>
                <UserPlus aria-hidden />
                {t.inviteUser}
              </Link>
            </Button>
          )}
          {total > shown.length && (
            <Button asChild size="sm" variant="outline">
              <Link to={usersHref(organization.id)}>{t.viewAll}</Link>
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent>
        {members.isPending ? (
          <LoadingRows rows={PAGING.teamCardMembers} />
        ) : members.isError ? (
          <QueryError error={members.error} title={MESSAGES.users.loadFailed} onRetry={members.refetch} />
        ) : shown.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t.noMembers}</p>
        ) : (
          <ul className="divide-y">
            {shown.map((user) => (
              <li key={user.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <div className="min-w-0">
                  <Link to={`${PATHS.users}/${user.id}`} className="block truncate font-medium hover:underline">
                    {fullName(user) || user.email}
                  </Link>
                  <p className="truncate text-sm text-muted-foreground">{user.email}</p>
                </div>
                <div className="flex items-center gap-2">
                  <span className="text-sm text-muted-foreground">{roleLabel(user.role)}</span>
                  <UserStatusBadge status={user.status} />
                </div>
              </li>
            ))}
          </ul>
        )}
        {pending > 0 && (
          <p className="mt-2 text-sm">
            <Link to={usersHref(organization.id, 'pending')} className="text-primary underline-offset-4 hover:underline">
              {t.pendingInvitations(pending)}
            </Link>
          </p>
        )}
      </CardContent>
    </Card>
  );
}
