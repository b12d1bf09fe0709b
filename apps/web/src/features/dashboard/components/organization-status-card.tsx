import { ORG_STATUSES, ORG_TYPE_LABELS, ORG_TYPES, type Dashboard } from '@console/domain';
import { OrganizationLink } from '@/components/organizations/organization-link';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate } from '@/lib/dates';
import { formatCount } from './tone';
import { MESSAGES } from '../wording';

const m = MESSAGES.dashboardPages;

/** Organizations below this one by status and type, and the most recently created (house and super agency). */
export function OrganizationStatusCard({ data }: { data: Dashboard }) {
  const { organizations } = data;
  const types = ORG_TYPES.filter((type) => organizations.by_type[type] > 0);
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="text-base">{m.organizationStatus}</CardTitle>
        <CardDescription>
          {formatCount(organizations.total)} organizations below {data.organization.name}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-2">
        <div className="space-y-4">
          <dl className="grid grid-cols-3 gap-2" aria-label="By status">
            {ORG_STATUSES.map((status) => (
              <div key={status} className="rounded-lg border p-3">
                <dt className="text-xs text-muted-foreground capitalize">{status}</dt>
                <dd className="text-xl font-semibold tabular-nums" data-testid={`status-${status}`}>
                  {formatCount(organizations.by_status[status])}
                </dd>
              </div>
            ))}
          </dl>
          {types.length > 0 && (
            <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm" aria-label="By type">
              {types.map((type) => (
                <div key={type} className="contents">
                  <dt className="text-muted-foreground">{ORG_TYPE_LABELS[type]}</dt>
                  <dd className="text-right tabular-nums">{formatCount(organizations.by_type[type])}</dd>
                </div>
              ))}
            </dl>
          )}
        </div>
        <section className="space-y-2" aria-labelledby="recently-created">
          <h3 id="recently-created" className="text-sm font-medium">
            {m.recentlyCreated}
          </h3>
          {organizations.recent.length === 0 ? (
            <p className="text-sm text-muted-foreground">{m.noneCreated}</p>
          ) : (
            <ul className="divide-y text-sm">
              {organizations.recent.map((org) => (
                <li key={org.id} className="flex flex-wrap items-center justify-between gap-x-3 py-1.5">
                  <OrganizationLink organization={org} className="min-w-0" />
                  <span className="text-xs text-muted-foreground">
                    {ORG_TYPE_LABELS[org.org_type]} · <span className="capitalize">{org.status}</span> · {formatDate(org.created_at)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </CardContent>
    </Card>
  );
}
