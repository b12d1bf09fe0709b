import { can, MESSAGES, PAGING, roleLabel } from '@console/domain';
import { UserPlus } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useOrganization } from '@/features/organizations/api/get-organization';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/paths';
import { useUsers } from '../api/list-users';
import { fullName } from '../format';
import { canInviteInto, inviteHref } from '../use-target-organization';
import { LoadError } from './LoadError';
import { UserStatusBadge } from './UserStatusBadge';

const t = MESSAGES.teamPages;

export interface TeamMembersCardProps {
  organizationId: string;
  organizationName: string;
  disableParentInvites: boolean;
}

/** The organization detail page's team card: the first members, View All and Invite. */
export function TeamMembersCard({ organizationId, organizationName, disableParentInvites }: TeamMembersCardProps) {
  const { claims } = useAuth();
  const allowed = can(claims?.role, 'users.read');
  const own = organizationId === claims?.org_id;
  const members = useUsers(
    { organization_id: organizationId, page: 1, page_size: PAGING.teamCardMembers },
    { enabled: allowed },
  );
  // The detail page has loaded this organization already: the parent id comes from that cache.
  const organization = useOrganization(own || !allowed ? undefined : organizationId);

  if (!allowed) return null;
  const target = {
    id: organizationId,
    name: organizationName,
    orgType: null,
    parentId: own ? null : (organization.data?.parent_org_id ?? null),
    disableParentInvites,
    own,
  };
  const total = members.data?.pagination.total ?? 0;

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>{t.teamCardTitle}</CardTitle>
        <div className="flex gap-2">
          {canInviteInto(claims, target) && (
            <Button asChild size="sm">
              <Link to={inviteHref(target)}>
                <UserPlus aria-hidden />
                {t.inviteUser}
              </Link>
            </Button>
          )}
          {total > PAGING.teamCardMembers && (
            <Button asChild size="sm" variant="outline">
              <Link to={`${PATHS.users}?organization_id=${encodeURIComponent(organizationId)}`}>{t.viewAll}</Link>
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent>
        {members.isPending ? (
          <div role="status" className="space-y-3">
            <span className="sr-only">Loading</span>
            {Array.from({ length: PAGING.teamCardMembers }, (_, index) => (
              <Skeleton key={index} className="h-10 w-full" />
            ))}
          </div>
        ) : members.isError ? (
          <LoadError error={members.error} title={MESSAGES.users.loadFailed} />
        ) : members.data.users.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t.noMembers}</p>
        ) : (
          <ul className="divide-y">
            {members.data.users.map((user) => (
              <li key={user.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <div className="min-w-0">
                  <Link to={`${PATHS.users}/${user.id}`} className="block truncate font-medium hover:underline">
                    {fullName(user) || user.email}
                  </Link>
                  <p className="truncate text-sm text-muted-foreground">{user.email}</p>
                </div>
                <div className="flex items-center gap-2">
                  <span className="text-sm capitalize text-muted-foreground">{roleLabel(user.role)}</span>
                  <UserStatusBadge status={user.status} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
