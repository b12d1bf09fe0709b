import { mayInviteTo } from '@console/domain';
import { UserPlus } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { QueryError } from '@/components/query-error';
import { PageHeader } from '@/components/page-header';
import { inviteHref } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { UsersPanel } from '../components/users-panel';
import { useTargetOrganization } from '../use-target-organization';
import { MESSAGES } from '../wording';

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
      <PageHeader title={t.usersTitle} subtitle={t.usersSubtitle(organization?.name ?? null)} loading={target.isPending} titleSize="medium">
        {!!organization && !!viewer && mayInviteTo(viewer, organization) && (
          <Button asChild>
            <Link to={inviteHref(organization)}>
              <UserPlus aria-hidden />
              {t.inviteUser}
            </Link>
          </Button>
        )}
      </PageHeader>
      {target.error ? (
        <QueryError error={target.error} title={MESSAGES.users.loadFailed} onRetry={target.refetch} />
      ) : (
        <UsersPanel organizationId={organizationId} organization={organization} />
      )}
    </section>
  );
}
