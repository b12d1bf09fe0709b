import { canHaveChildren, isOwnOrganization, mayAllocateFrom, mayListPeople, ORG_TYPE_LABELS } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { Bot, Building2, Coins, Gauge } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { LIVE } from '@/api/live';
import { organizationQueries } from '@/api/organizations';
import { CapacityPanel } from '@/components/billing/capacity-panel';
import { LowBalanceAlert } from '@/components/credits/low-balance-alert';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { formatCredits } from '@/lib/credit-format';
import { showsOrganizationList } from '@/lib/org-reach';
import { ledgerHref, PATHS, usersHref } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { AgentsPanel } from './agents-panel';
import { AllocateCreditsDialog } from './allocate-credits-dialog';
import { MESSAGES } from '../wording';

const m = MESSAGES.billingPages;

function Metric({ icon, label, value }: { icon: ReactNode; label: string; value: ReactNode }) {
  return (
    <Card className="gap-2 py-4">
      <CardHeader className="px-4">
        <CardTitle className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
          {icon}
          {label}
        </CardTitle>
      </CardHeader>
      <CardContent className="px-4 text-xl font-semibold tabular-nums break-words">{value}</CardContent>
    </Card>
  );
}

/**
 * Resources of one organization: Overview, Agents and Capacity tabs, an
 * Allocate Credits dialog unless it is a tenant, and quick links. /resources and
 * {base}/:id/resources both show it.
 */
export function OrganizationResources({ organizationId, base }: { organizationId: string; base: string }) {
  const viewer = useViewer();
  // Its balance and active agents are live figures.
  const organization = useQuery({ ...organizationQueries.detail(organizationId), enabled: !!organizationId, ...LIVE });

  if (organization.isPending) {
    return (
      <section className="space-y-6">
        <h1 className="text-2xl font-semibold tracking-tight">{m.resourcesTitle}</h1>
        <LoadingRows rows={3} className="h-24" />
      </section>
    );
  }
  if (organization.isError) {
    return (
      <section className="space-y-6">
        <h1 className="text-2xl font-semibold tracking-tight">{m.resourcesTitle}</h1>
        <QueryError
          error={organization.error}
          title={m.loadResourcesFailed}
          notFound={MESSAGES.organizations.notFound}
          onRetry={organization.refetch}
        />
      </section>
    );
  }

  const org = organization.data;
  const own = !!viewer && isOwnOrganization(viewer, org);
  // Credits go from the user's own organization to its active direct children.
  const mayAllocate = !!viewer && mayAllocateFrom(viewer, org) && canHaveChildren(org.org_type);
  const teamHref = own ? PATHS.team : usersHref(org.id);
  // Team and Organizations open lists the server gives only with their list permissions.
  const mayOpenTeam = !!viewer && mayListPeople(viewer);
  const mayOpenOrganizations = showsOrganizationList(viewer);

  return (
    <section className="space-y-6">
      <PageHeader
        title={m.resourcesTitle}
        subtitle={`${m.resourcesSubtitle(org.name)} · ${ORG_TYPE_LABELS[org.org_type]}`}
        titleSize="medium"
      >
        {mayAllocate && (
          // A wrapper keeps the button its own width when the header stacks on a narrow screen.
          <div>
            <AllocateCreditsDialog organizationId={org.id} base={base} />
          </div>
        )}
      </PageHeader>

      <Tabs defaultValue="overview" className="gap-4">
        <TabsList className="h-auto w-full flex-wrap sm:w-fit">
          <TabsTrigger value="overview">{m.tabOverview}</TabsTrigger>
          <TabsTrigger value="agents">{m.tabAgents}</TabsTrigger>
          <TabsTrigger value="capacity">{m.tabCapacity}</TabsTrigger>
        </TabsList>
        <TabsContent value="overview" className="space-y-4">
          <LowBalanceAlert balance={org.credit_balance} threshold={org.organization_billing_settings.low_balance_threshold} />
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            <Metric icon={<Coins className="size-4" aria-hidden />} label={m.creditBalance} value={formatCredits(org.credit_balance)} />
            <Metric icon={<Gauge className="size-4" aria-hidden />} label={m.activatedAgentLimit} value={org.activated_agent_limit} />
            <Metric icon={<Bot className="size-4" aria-hidden />} label={m.activeAgents} value={org.active_agent_count} />
            <Metric icon={<Building2 className="size-4" aria-hidden />} label={m.childOrganizations} value={org.child_count} />
          </div>
        </TabsContent>
        <TabsContent value="agents">
          <AgentsPanel organization={org} />
        </TabsContent>
        <TabsContent value="capacity">
          {canHaveChildren(org.org_type) ? (
            <CapacityPanel organizationId={org.id} childHref={(childId) => `${base}/${childId}/resources`} />
          ) : (
            <Card>
              <CardContent>
                <p className="text-sm text-muted-foreground">{m.noChildren}</p>
              </CardContent>
            </Card>
          )}
        </TabsContent>
      </Tabs>

      <Card className="gap-4">
        <CardHeader>
          <CardTitle className="text-base">{m.quickLinks}</CardTitle>
        </CardHeader>
        <CardContent>
          <nav aria-label={m.quickLinks} className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <Link to={ledgerHref(own ? null : org.id)}>{m.linkLedger}</Link>
            </Button>
            <Button asChild variant="outline" size="sm">
              <Link to={`${base}/${org.id}/billing`}>{m.linkBilling}</Link>
            </Button>
            {mayOpenTeam && (
              <Button asChild variant="outline" size="sm">
                <Link to={teamHref}>{m.linkTeam}</Link>
              </Button>
            )}
            {mayOpenOrganizations && (
              <Button asChild variant="outline" size="sm">
                <Link to={base}>{m.linkOrganizations}</Link>
              </Button>
            )}
          </nav>
        </CardContent>
      </Card>
    </section>
  );
}
