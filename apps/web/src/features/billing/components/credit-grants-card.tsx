import { compareGrants, type GrantList, type GrantRow } from '@console/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Gift } from 'lucide-react';
import { useId, useState } from 'react';
import { grantQueries } from '@/api/grants';
import { ResponsiveDataTable } from '@/components/data-table';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { StackedCard } from '@/components/stacked-card';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { formatCredits, formatDecimal } from '@/lib/credit-format';
import { formatDateTime } from '@/lib/dates';
import { agentsOf } from '@/lib/grant-format';
import { MESSAGES } from '../wording';

const w = MESSAGES.grantPages.list;

/** When it expires, or that it has (or was used up before). */
function expiryOf(grant: GrantRow) {
  if (grant.expired_at) return w.expired(formatDateTime(grant.expired_at));
  return grant.expires_at ? formatDateTime(grant.expires_at) : w.never;
}

function remainingOf(grant: GrantRow) {
  if (!grant.expired_at && Number(grant.remaining) === 0) return <span className="text-muted-foreground">{w.usedUp}</span>;
  return <span className="tabular-nums">{formatDecimal(grant.remaining)}</span>;
}

/** What each agent type could spend now, and the open credits every agent may spend. */
function Spendable({ parts }: { parts: GrantList['parts'] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <h3 id={headingId} className="text-sm font-semibold">
        {w.spendableTitle}
      </h3>
      <p className="text-sm text-muted-foreground">{w.spendableHint}</p>
      <p className="text-sm">{w.openRow(formatCredits(parts.open))}</p>
      {parts.spendable.length === 0 ? (
        <p className="text-sm text-muted-foreground">{w.noAgents}</p>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2" aria-label={w.spendableLabel}>
          {parts.spendable.map((agent) => (
            <li key={agent.code} className="flex min-w-0 items-baseline justify-between gap-3 rounded-md border px-3 py-2 text-sm">
              <span className="min-w-0 wrap-anywhere">{agent.name}</span>
              <span className="shrink-0 font-medium tabular-nums">{formatCredits(agent.amount)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * An organization's credit grants, in the order they are drawn, with what each agent type
 * could spend now; a switch adds the used-up and expired ones. Live: usage and expiry change
 * them without anyone here doing anything.
 */
export function CreditGrantsCard({ organizationId }: { organizationId: string }) {
  const [all, setAll] = useState(false);
  const switchId = useId();
  const grants = useQuery({ ...grantQueries.list(organizationId, all), placeholderData: keepPreviousData });

  let body;
  if (grants.isPending) body = <LoadingRows rows={3} />;
  else if (grants.isError) body = <QueryError error={grants.error} title={w.loadFailed} onRetry={grants.refetch} />;
  else {
    // The grants still held in the order they are drawn, then the expired ones.
    const rows = [...grants.data.grants].sort((a, b) => Number(!!a.expired_at) - Number(!!b.expired_at) || compareGrants(a, b));
    const right = { headClassName: 'text-right', className: 'text-right whitespace-nowrap' };
    body = (
      <div className="space-y-6">
        <Spendable parts={grants.data.parts} />
        {rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">{all ? w.emptyAll : w.empty}</p>
        ) : (
          <ResponsiveDataTable<GrantRow>
            label={w.label}
            rows={rows}
            rowClassName={(grant) => (grant.expired_at ? 'text-muted-foreground' : undefined)}
            columns={[
              { head: w.amount, ...right, cell: (grant) => <span className="tabular-nums">{formatDecimal(grant.amount)}</span> },
              { head: w.remaining, ...right, cell: remainingOf },
              { head: w.agents, className: 'max-w-56 whitespace-normal wrap-anywhere', cell: agentsOf },
              { head: w.priority, ...right, cell: (grant) => grant.priority },
              { head: w.expires, className: 'whitespace-nowrap', cell: expiryOf },
              { head: w.from, className: 'max-w-48 whitespace-normal wrap-anywhere', cell: (grant) => grant.granted_by.name },
            ]}
            card={(grant) => (
              <StackedCard
                title={<span className="tabular-nums">{formatCredits(grant.amount)}</span>}
                fields={[
                  { label: w.remaining, value: remainingOf(grant) },
                  { label: w.agents, value: agentsOf(grant) },
                  { label: w.priority, value: grant.priority },
                  { label: w.expires, value: expiryOf(grant) },
                  { label: w.from, value: grant.granted_by.name },
                ]}
              />
            )}
          />
        )}
      </div>
    );
  }

  return (
    <Card className="min-w-0 gap-4">
      <CardHeader>
        <IconCardTitle icon={Gift}>{w.title}</IconCardTitle>
        <CardDescription>{w.description}</CardDescription>
        <div className="flex items-center gap-2 pt-1">
          <Switch id={switchId} checked={all} onCheckedChange={setAll} />
          <Label htmlFor={switchId} className="font-normal">
            {w.showAll}
          </Label>
        </div>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
