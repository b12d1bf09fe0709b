import {
  canHaveChildren,
  mayDeleteOrganization,
  mayEditOrganization,
  mayViewMfaPolicy,
  mayListOrganizations,
  mayViewActivity,
  mayViewBilling,
  ORG_TYPE_LABELS,
} from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { History, Pencil, ReceiptText, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { LIVE } from '@/api/live';
import { organizationQueries } from '@/api/organizations';
import { BackLink } from '@/components/back-link';
import { PageLoading } from '@/components/page-loading';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { TeamMembersCard } from '@/components/users/team-members-card';
import { formatDateTime } from '@/lib/dates';
import { useOrgBase } from '@/lib/org-base';
import { showsOrganizationList } from '@/lib/org-reach';
import { activityHref, ledgerHref, PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { BillingOverviewCard } from '../components/billing-overview-card';
import { ChildOrganizationsCard } from '../components/child-organizations-card';
import { MfaPolicyCard } from '../components/mfa-policy-card';
import { DeleteOrganizationButton } from '../components/delete-organization-button';
import { OrgStatusBadge } from '../components/org-status-badge';
import { MESSAGES } from '../wording';

/** One of the page's outline actions: a link that looks like a button, its icon first. */
function ActionLink({ to, icon: Icon, children }: { to: string; icon: LucideIcon; children: ReactNode }) {
  return (
    <Button asChild variant="outline">
      <Link to={to}>
        <Icon aria-hidden />
        {children}
      </Link>
    </Button>
  );
}

/** {base}/:id: details, billing overview, team members and child organizations. */
export default function OrganizationDetailPage() {
  const base = useOrgBase();
  const { id } = useParams<{ id: string }>();
  const viewer = useViewer();
  // Its balance and active agents move with usage: followed while shown.
  const query = useQuery({ ...organizationQueries.detail(id ?? ''), enabled: !!id, ...LIVE });
  // Back leads to the organization lists only for those who may open them; others came from their dashboard.
  const back = showsOrganizationList(viewer) ? base : PATHS.dashboard;

  if (query.isPending) {
    return (
      <section className="space-y-4">
        <BackLink to={back} />
        <PageLoading />
      </section>
    );
  }
  if (query.isError) {
    return (
      <section className="space-y-4">
        <BackLink to={back} />
        <QueryError error={query.error} title={MESSAGES.organizations.failedToLoadDetails} onRetry={query.refetch} />
      </section>
    );
  }

  const organization = query.data;
  return (
    <section className="space-y-6">
      <BackLink to={back} />
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-2">
          <h1 className="text-3xl font-bold tracking-tight wrap-anywhere" title={organization.name}>
            {organization.name}
          </h1>
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <span>{ORG_TYPE_LABELS[organization.org_type]}</span>
            <OrgStatusBadge status={organization.status} />
          </div>
          <p className="text-xs text-muted-foreground">
            ID <span className="font-mono select-all">{organization.id}</span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {!!viewer && mayViewBilling(viewer) && (
            <ActionLink to={ledgerHref(organization.id)} icon={ReceiptText}>
              {MESSAGES.shell.nav.creditLedger}
            </ActionLink>
          )}
          {!!viewer && mayViewActivity(viewer) && (
            <ActionLink to={activityHref(organization.id)} icon={History}>
              {MESSAGES.shell.nav.activity}
            </ActionLink>
          )}
          {!!viewer && mayEditOrganization(viewer, organization) && (
            <ActionLink to={`${base}/${organization.id}/edit`} icon={Pencil}>
              Edit
            </ActionLink>
          )}
          {!!viewer && mayDeleteOrganization(viewer, organization) && <DeleteOrganizationButton organization={organization} base={base} />}
        </div>
      </header>

      <Card>
        <CardContent>
          <dl className="grid gap-4 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-muted-foreground">Created</dt>
              <dd>{formatDateTime(organization.created_at)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Last updated</dt>
              <dd>{formatDateTime(organization.updated_at)}</dd>
            </div>
            <div className="sm:col-span-2">
              <dt className="text-muted-foreground">Description</dt>
              <dd className="whitespace-pre-wrap">{organization.description || 'No description.'}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>

      <BillingOverviewCard organization={organization} base={base} />

      <TeamMembersCard organization={organization} />

      {!!viewer && mayViewMfaPolicy(viewer, organization) && <MfaPolicyCard organization={organization} />}

      {canHaveChildren(organization.org_type) && !!viewer && mayListOrganizations(viewer) && (
        <ChildOrganizationsCard organization={organization} base={base} />
      )}
    </section>
  );
}
