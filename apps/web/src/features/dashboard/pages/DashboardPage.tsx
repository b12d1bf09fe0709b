import { MESSAGES, ORG_TYPE_LABELS, type Dashboard } from '@console/domain';
import { AlertCircle, ShieldAlert } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useMe } from '@/features/users/api/get-me';
import { ApiError } from '@/lib/api';
import { useDashboard } from '../api/get-dashboard';
import { AgentsEmptyState } from '../components/AgentsEmptyState';
import { ChildOrganizationsCard } from '../components/ChildOrganizationsCard';
import { CreditBalancePanel } from '../components/CreditBalancePanel';
import { CreditSummaryCard } from '../components/CreditSummaryCard';
import { CreditUsageCard } from '../components/CreditUsageCard';
import { OrganizationStatusCard } from '../components/OrganizationStatusCard';
import { PerformanceMetrics } from '../components/PerformanceMetrics';
import { ResourceUtilizationCard } from '../components/ResourceUtilizationCard';
import { RevenueOverviewCard } from '../components/RevenueOverviewCard';
import { ToolsSection } from '../components/ToolsSection';
import { dashboardWidgets, isDashboardTab, type DashboardTab } from '../widgets';

const m = MESSAGES.dashboardPages;

function Loading() {
  return (
    <div role="status" className="space-y-4">
      <span className="sr-only">Loading</span>
      <Skeleton className="h-8 w-64" />
      <Skeleton className="h-32 w-full" />
    </div>
  );
}

function DashboardTabs({ data, ownOrganizationId }: { data: Dashboard; ownOrganizationId: string }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: DashboardTab = isDashboardTab(requested) ? requested : 'overview';
  const widgets = dashboardWidgets(data.organization.org_type);
  const { reason } = data.agents;
  const select = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === 'overview') next.delete('tab');
        else next.set('tab', value);
        return next;
      },
      { replace: true },
    );
  return (
    <Tabs value={tab} onValueChange={select} className="space-y-4">
      <TabsList className="w-full justify-start overflow-x-auto sm:w-fit">
        <TabsTrigger value="overview">{m.tabOverview}</TabsTrigger>
        <TabsTrigger value="agents">{m.tabAgents}</TabsTrigger>
        <TabsTrigger value="credits">{m.tabCredits}</TabsTrigger>
        <TabsTrigger value="performance">{m.tabPerformance}</TabsTrigger>
      </TabsList>
      <TabsContent value="overview" className="space-y-4">
        <PerformanceMetrics data={data} />
        {widgets.organizationStatus && <OrganizationStatusCard data={data} />}
        {(widgets.childOrganizations || widgets.revenueOverview) && (
          <div className="grid gap-4 lg:grid-cols-2">
            {widgets.childOrganizations && <ChildOrganizationsCard data={data} />}
            {widgets.revenueOverview && <RevenueOverviewCard data={data} />}
          </div>
        )}
      </TabsContent>
      <TabsContent value="agents" className="grid gap-4 lg:grid-cols-2">
        <AgentsEmptyState title={m.agentPerformance} reason={reason} />
        <AgentsEmptyState title={m.agentAnalytics} reason={reason} />
      </TabsContent>
      <TabsContent value="credits" className="space-y-4">
        <CreditUsageCard data={data} />
        <CreditBalancePanel data={data} ownOrganizationId={ownOrganizationId} />
      </TabsContent>
      <TabsContent value="performance" className="space-y-4">
        <PerformanceMetrics data={data} />
        <div className="grid gap-4 lg:grid-cols-2">
          {widgets.revenueOverview && <RevenueOverviewCard data={data} />}
          <AgentsEmptyState title={m.agentAnalytics} reason={reason} />
          <ResourceUtilizationCard data={data} />
        </div>
      </TabsContent>
    </Tabs>
  );
}

function DashboardFigures({ organizationId }: { organizationId: string }) {
  const dashboard = useDashboard(undefined);
  if (dashboard.isPending) return <Loading />;
  if (dashboard.isError) {
    const denied = dashboard.error instanceof ApiError && dashboard.error.status === 403;
    return (
      <Alert variant="destructive">
        {denied ? <ShieldAlert aria-hidden /> : <AlertCircle aria-hidden />}
        <AlertTitle>{denied ? MESSAGES.auth.accessDenied : m.loadFailed}</AlertTitle>
        <AlertDescription>{dashboard.error.message}</AlertDescription>
      </Alert>
    );
  }
  const data = dashboard.data;
  return (
    <div className="space-y-6">
      <CreditSummaryCard data={data} />
      <DashboardTabs data={data} ownOrganizationId={organizationId} />
      <ToolsSection orgType={data.organization.org_type} />
    </div>
  );
}

export default function DashboardPage() {
  const me = useMe();

  if (me.isPending) return <Loading />;
  if (me.isError) {
    return (
      <Alert variant="destructive">
        <AlertCircle aria-hidden />
        <AlertTitle>{MESSAGES.shell.errorTitle}</AlertTitle>
        <AlertDescription>{me.error.message}</AlertDescription>
      </Alert>
    );
  }

  const { organization } = me.data;
  if (!organization) {
    return <p className="text-muted-foreground">{MESSAGES.organizations.selectOrganization}</p>;
  }
  return (
    <section className="space-y-6">
      <header className="space-y-1">
        <p className="text-sm text-muted-foreground">
          {MESSAGES.shell.nav.dashboard} · {ORG_TYPE_LABELS[organization.org_type]}
        </p>
        <h1 className="text-3xl font-bold tracking-tight break-words">{organization.name}</h1>
      </header>
      <DashboardFigures organizationId={organization.id} />
    </section>
  );
}
