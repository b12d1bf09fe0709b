import { mayInviteTo, type UserStatus } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { RotateCw, UserPlus } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { mayRetryLoad } from '@/components/query-error';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { PageHeader } from '@/components/page-header';
import { invitationQueries } from '@/api/invitations';
import { userQueries } from '@/api/users';
import { PATHS } from '@/lib/paths';
import { useSearchPatch } from '@/lib/use-search-patch';
import { useViewer } from '@/lib/use-viewer';
import { InvitationsTable } from '../components/invitations-table';
import { UsersPanel } from '../components/users-panel';
import { useTargetOrganization } from '../use-target-organization';
import { MESSAGES } from '../wording';

const t = MESSAGES.teamPages;

interface Stat {
  value?: number;
  pending: boolean;
  error: Error | null;
  refetch(): unknown;
}

/** A count from the list's pagination total: one row is fetched. */
function useUserCount(status?: UserStatus): Stat {
  const query = useQuery(userQueries.list({ page: 1, page_size: 1, status }));
  return { value: query.data?.pagination.total, pending: query.isPending, error: query.error, refetch: query.refetch };
}

function StatCard({ title, stat }: { title: string; stat: Stat }) {
  return (
    <Card className="gap-2">
      <CardHeader>
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {stat.pending ? (
          <Skeleton className="h-8 w-16" />
        ) : stat.value === undefined ? (
          <div className="flex flex-wrap items-center gap-2">
            <p className="text-sm text-muted-foreground">{t.statUnavailable}</p>
            {/* A count that failed to load can be asked again, unless the server refused it. */}
            {!!stat.error && mayRetryLoad(stat.error) && (
              <Button variant="outline" size="sm" aria-label={`Retry ${title}`} onClick={() => void stat.refetch()}>
                <RotateCw aria-hidden />
                Retry
              </Button>
            )}
          </div>
        ) : (
          <p className="text-2xl font-bold" aria-label={`${title}: ${stat.value}`}>
            {stat.value}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/** /team: counts, members and pending invitations of the user's own organization. */
export default function TeamPage() {
  const viewer = useViewer();
  // The tab is in the URL too, so Back from a member's page returns to the tab it was opened from.
  const [searchParams, patch] = useSearchPatch();
  const tab = searchParams.get('tab') === 'invitations' ? 'invitations' : 'members';
  const { organization } = useTargetOrganization(undefined);
  const total = useUserCount();
  const active = useUserCount('active');
  const inactive = useUserCount('inactive');
  const invitations = useQuery(invitationQueries.list({ status: 'pending', page: 1, page_size: 1 }));
  const pending: Stat = {
    value: invitations.data?.pagination.total,
    pending: invitations.isPending,
    error: invitations.error,
    refetch: invitations.refetch,
  };

  return (
    <section className="space-y-6">
      <PageHeader title={t.teamTitle} subtitle={t.teamSubtitle} titleSize="medium">
        {!!organization && !!viewer && mayInviteTo(viewer, organization) && (
          <Button asChild>
            <Link to={`${PATHS.users}/create`}>
              <UserPlus aria-hidden />
              {t.inviteTeamMember}
            </Link>
          </Button>
        )}
      </PageHeader>
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatCard title={t.statTotal} stat={total} />
        <StatCard title={t.statActive} stat={active} />
        <StatCard title={t.statPending} stat={pending} />
        <StatCard title={t.statInactive} stat={inactive} />
      </div>
      <Tabs
        value={tab}
        // Chosen on press (or Enter), not again on the focus that follows: one history entry per change.
        activationMode="manual"
        onValueChange={(value) => patch({ tab: value === 'invitations' ? value : undefined })}
        className="space-y-4"
      >
        <TabsList>
          <TabsTrigger value="members">{t.tabMembers}</TabsTrigger>
          <TabsTrigger value="invitations">{t.tabInvitations}</TabsTrigger>
        </TabsList>
        <TabsContent value="members">
          <UsersPanel organization={organization} />
        </TabsContent>
        <TabsContent value="invitations">
          <InvitationsTable organization={organization} />
        </TabsContent>
      </Tabs>
    </section>
  );
}
