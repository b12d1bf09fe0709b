import { mayInviteTo } from '@console/domain';
import { UserPlus } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { QueryError } from '@/components/query-error';
import { inviteHref } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { UsersPanel } from '../components/UsersPanel';
import { useTargetOrganization } from '../use-target-organization';
import { MESSAGES } from '@/lib/wording';

const t = MESSAGES.teamPages;

/** /users?organization_id=: the users and pending invitations of an organization. */
export default function UsersPage() {
  const [searchParams] = useSearchParams();
  const organizationId = searchParams.get('organization_id') || undefined;
  const viewer = useViewer();
  const target = useTargetOrganization(organizationId);
  const organization = target.organization;

  return (
    <section className="space-y-6">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">{t.usersTitle}</h1>
          {target.isPending ? (
            <Skeleton className="h-5 w-64" />
          ) : (
            <p className="text-muted-foreground">{t.usersSubtitle(organization?.name ?? null)}</p>
          )}
        </div>
        {!!organization && !!viewer && mayInviteTo(viewer, organization) && (
          <Button asChild>
            <Link to={inviteHref(organization)}>
              <UserPlus aria-hidden />
              {t.inviteUser}
            </Link>
          </Button>
        )}
      </header>
      {target.error ? (
        <QueryError error={target.error} title={MESSAGES.users.loadFailed} onRetry={target.refetch} />
      ) : (
        <UsersPanel organizationId={organizationId} organization={organization} />
      )}
    </section>
  );
}
