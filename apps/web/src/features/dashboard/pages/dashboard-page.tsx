import { isSeller, mayViewBilling, mayViewPrices, mayViewSellerBooks, ORG_TYPE_LABELS, type Dashboard } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { dashboardQueries } from '@/api/dashboard';
import { userQueries } from '@/api/users';
import { LoadingRows } from '@/components/loading-rows';
import { Freshness } from '@/components/freshness';
import { PageTabs } from '@/components/page-tabs';
import { QueryError } from '@/components/query-error';
import { AgentAnalyticsCard } from '../components/agent-analytics-card';
import { AgentPerformanceCard } from '../components/agent-performance-card';
import { ChildOrganizationsCard } from '../components/child-organizations-card';
import { ChildrenNeedingAttentionCard } from '../components/children-needing-attention-card';
import { CrossedAlertLinesCard } from '../components/crossed-alert-lines-card';
import { CreditBalancePanel } from '../components/credit-balance-panel';
import { CreditSummaryCard } from '../components/credit-summary-card';
import { CreditUsageCard } from '../components/credit-usage-card';
import { EarningsCard } from '../components/earnings-card';
import { ExpiringGrantsCard } from '../components/expiring-grants-card';
import { OrganizationStatusCard } from '../components/organization-status-card';
import { PerformanceMetrics } from '../components/performance-metrics';
import { ReceivablesCard } from '../components/receivables-card';
import { ResourceUtilizationCard } from '../components/resource-utilization-card';
import { RevenueOverviewCard } from '../components/revenue-overview-card';
import { ToolsSection } from '../components/tools-section';
import { useViewer } from '@/lib/use-viewer';
import { dashboardWidgets, isDashboardTab, type DashboardTab } from '../widgets';
import { MESSAGES } from '../wording';

const m = MESSAGES.dashboardPages;

const Loading = () => <LoadingRows rows={['h-8 w-64', 'h-32 w-full']} />;

function DashboardTabs({ data }: { data: Dashboard }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: DashboardTab = isDashboardTab(requested) ? requested : 'overview';
  const widgets = dashboardWidgets(data.organization.org_type);
  const viewer = useViewer();
  const showEarnings = widgets.earnings && !!viewer && mayViewPrices(viewer, viewer.organization);
  const showReceivables = !!viewer && isSeller(viewer.organization) && mayViewSellerBooks(viewer, viewer.organization);
  const showExpiring = !!viewer && mayViewBilling(viewer);
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
    <PageTabs
      value={tab}
      onValueChange={select}
      className="space-y-4"
      overflow="scroll"
      tabs={[
        {
          value: 'overview',
          label: m.tabOverview,
          content: (
            <>
              <CrossedAlertLinesCard data={data} />
              <ChildrenNeedingAttentionCard data={data} />
              <PerformanceMetrics data={data} />
              {showEarnings && <EarningsCard organizationId={viewer.organization.id} />}
              {showReceivables && <ReceivablesCard organizationId={viewer.organization.id} />}
              {showExpiring && <ExpiringGrantsCard />}
              {widgets.organizationStatus && <OrganizationStatusCard data={data} />}
              {(widgets.childOrganizations || widgets.revenueOverview) && (
                <div className="grid gap-4 lg:grid-cols-2">
                  {widgets.childOrganizations && <ChildOrganizationsCard data={data} />}
                  {widgets.revenueOverview && <RevenueOverviewCard data={data} />}
                </div>
              )}
            </>
          ),
        },
        {
          value: 'agents',
          label: m.tabAgents,
          className: 'grid gap-4 lg:grid-cols-2',
          content: (
            <>
              <AgentPerformanceCard data={data} />
              <AgentAnalyticsCard data={data} />
            </>
          ),
        },
        {
          value: 'credits',
          label: m.tabCredits,
          content: (
            <>
              <CreditUsageCard data={data} />
              <CreditBalancePanel data={data} />
            </>
          ),
        },
        {
          value: 'performance',
          label: m.tabPerformance,
          content: (
            <>
              <PerformanceMetrics data={data} />
              <div className="grid gap-4 lg:grid-cols-2">
                {widgets.revenueOverview && <RevenueOverviewCard data={data} />}
                <AgentAnalyticsCard data={data} initialPeriod="last_30_days" />
                <ResourceUtilizationCard data={data} />
              </div>
            </>
          ),
        },
      ]}
    />
  );
}

function DashboardFigures() {
  const dashboard = useQuery(dashboardQueries.figures(undefined));
  if (dashboard.isPending) return <Loading />;
  if (dashboard.isError) return <QueryError error={dashboard.error} title={m.loadFailed} onRetry={dashboard.refetch} />;
  const data = dashboard.data;
  return (
    <div className="space-y-6">
      <CreditSummaryCard
        data={data}
        freshness={
          <Freshness updatedAt={dashboard.dataUpdatedAt} onRefresh={() => void dashboard.refetch()} refreshing={dashboard.isFetching} />
        }
      />
      <DashboardTabs data={data} />
      <ToolsSection orgType={data.organization.org_type} />
    </div>
  );
}

export default function DashboardPage() {
  const me = useQuery(userQueries.me());

  if (me.isPending) return <Loading />;
  if (me.isError) return <QueryError error={me.error} title={MESSAGES.shell.errorTitle} onRetry={me.refetch} />;

  const { organization } = me.data;
  return (
    <section className="space-y-6">
      <header className="space-y-1">
        <p className="text-sm text-muted-foreground">
          {MESSAGES.shell.nav.dashboard} · {ORG_TYPE_LABELS[organization.org_type]}
        </p>
        <h1 className="text-3xl font-bold tracking-tight wrap-anywhere" title={organization.name}>
          {organization.name}
        </h1>
      </header>
      <DashboardFigures />
    </section>
  );
}
