import { can, canHaveChildren, MESSAGES, ORG_TYPE_LABELS } from '@console/domain';
import { Pencil } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { formatLedgerDate as formatDateTime } from '@/features/credits/format';
import { TeamMembersCard } from '@/features/users/components/TeamMembersCard';
import { LoadError } from '@/features/users/components/LoadError';
import { useAuth } from '@/lib/auth';
import { useOrganization } from '../api/get-organization';
import { BackLink } from '../components/BackLink';
import { BillingOverviewCard } from '../components/BillingOverviewCard';
import { ChildOrganizationsCard } from '../components/ChildOrganizationsCard';
import { DeleteOrganizationButton } from '../components/DeleteOrganizationButton';
import { OrgStatusBadge } from '../components/OrgStatusBadge';
import { mayDelete, mayEdit } from '../rules';
import { useOrgBase } from '../use-org-base';

/** {base}/:id: details, billing overview, team members and child organizations. */
export default function OrganizationDetailPage() {
  const base = useOrgBase();
  const { id } = useParams<{ id: string }>();
  const { claims } = useAuth();
  const query = useOrganization(id);

  if (query.isPending) {
    return (
      <section className="space-y-4">
        <BackLink to={base} />
        <PageLoading />
      </section>
    );
  }
  if (query.isError) {
    return (
      <section className="space-y-4">
        <BackLink to={base} />
        <LoadError error={query.error} title={MESSAGES.organizations.failedToLoadDetails} />
      </section>
    );
  }

  const organization = query.data;
  return (
    <section className="space-y-6">
      <BackLink to={base} />
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-2">
          <h1 className="text-3xl font-bold tracking-tight">{organization.name}</h1>
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <span>{ORG_TYPE_LABELS[organization.org_type]}</span>
            <OrgStatusBadge status={organization.status} />
          </div>
          <p className="text-xs text-muted-foreground">
            ID <span className="font-mono select-all">{organization.id}</span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {mayEdit(claims, organization) && (
            <Button asChild variant="outline">
              <Link to={`${base}/${organization.id}/edit`}>
                <Pencil aria-hidden />
                Edit
              </Link>
            </Button>
          )}
          {mayDelete(claims, organization) && <DeleteOrganizationButton organization={organization} base={base} />}
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

      {can(claims?.role, 'users.read') && (
        <TeamMembersCard
          organizationId={organization.id}
          organizationName={organization.name}
          disableParentInvites={organization.disable_parent_invites}
        />
      )}

      {canHaveChildren(organization.org_type) && <ChildOrganizationsCard organization={organization} base={base} />}
    </section>
  );
}
