import { can, MESSAGES, type UserStatus } from '@console/domain';
import { UserPlus } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/paths';
import { useInvitations } from '../api/list-invitations';
import { useUsers } from '../api/list-users';
import { InvitationsTable } from '../components/InvitationsTable';
import { UsersPanel } from '../components/UsersPanel';

const t = MESSAGES.teamPages;

/** A count from the list's pagination total: one row is fetched (spec 2 section 9). */
function useUserCount(status?: UserStatus) {
  const query = useUsers({ page: 1, page_size: 1, status });
  return { value: query.data?.pagination.total, pending: query.isPending, failed: query.isError };
}

function StatCard({ title, stat }: { title: string; stat: { value?: number; pending: boolean; failed: boolean } }) {
  return (
    <Card className="gap-2">
      <CardHeader>
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {stat.pending ? (
          <Skeleton className="h-8 w-16" />
        ) : stat.value === undefined ? (
          <p className="text-sm text-muted-foreground">{t.statUnavailable}</p>
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
  const { claims } = useAuth();
  const total = useUserCount();
  const active = useUserCount('active');
  const inactive = useUserCount('inactive');
  const invitations = useInvitations({ status: 'pending', page: 1, page_size: 1 });
  const pending = {
    value: invitations.data?.pagination.total,
    pending: invitations.isPending,
    failed: invitations.isError,
  };

  return (
    <section className="space-y-6">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">{t.teamTitle}</h1>
          <p className="text-muted-foreground">{t.teamSubtitle}</p>
        </div>
        {can(claims?.role, 'invitations.manage') && (
          <Button asChild>
            <Link to={`${PATHS.users}/create`}>
              <UserPlus aria-hidden />
              {t.inviteTeamMember}
            </Link>
          </Button>
        )}
      </header>
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatCard title={t.statTotal} stat={total} />
        <StatCard title={t.statActive} stat={active} />
        <StatCard title={t.statPending} stat={pending} />
        <StatCard title={t.statInactive} stat={inactive} />
      </div>
      <Tabs defaultValue="members" className="space-y-4">
        <TabsList>
          <TabsTrigger value="members">{t.tabMembers}</TabsTrigger>
          <TabsTrigger value="invitations">{t.tabInvitations}</TabsTrigger>
        </TabsList>
        <TabsContent value="members">
          <UsersPanel orgType={claims?.organization_type ?? null} />
        </TabsContent>
        <TabsContent value="invitations">
          <InvitationsTable />
        </TabsContent>
      </Tabs>
    </section>
  );
}
