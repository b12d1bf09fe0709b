import { ORG_STATUSES, type OrgStatus } from '@console/domain';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { debugQueries } from '@/api/debug';
import { QueryError } from '@/components/query-error';
import { MESSAGES } from '../wording';

const d = MESSAGES.debugPages;

/** How many direct children have each status: active only by default, every status with the toggle. */
function useChildStatusCounts(organizationId: string | null, includeAll: boolean) {
  const statuses: readonly OrgStatus[] = includeAll ? ORG_STATUSES : ['active'];
  return useQueries({
    queries: statuses.map((status) => ({ ...debugQueries.childCount(organizationId ?? '', status), enabled: !!organizationId })),
    combine: (results) => ({
      counts: statuses.map((status, index) => ({ status, count: results[index]!.data })),
      isPending: results.some((r) => r.isPending),
      error: results.find((r) => r.error)?.error ?? null,
      refetch: () => Promise.all(results.map((r) => r.refetch())),
    }),
  });
}

/** Child organizations by status: active only by default, all with the toggle. */
export function StatusBreakdownCard({ organizationId }: { organizationId: string | null }) {
  const [includeAll, setIncludeAll] = useState(false);
  const switchId = useId();
  const { counts, isPending, error, refetch } = useChildStatusCounts(organizationId, includeAll);
  useEffect(() => {
    if (error) toast.error(d.fetchError, { description: error.message });
  }, [error]);
  const total = counts.reduce((sum, c) => sum + (c.count ?? 0), 0);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>{d.statusBreakdown}</CardTitle>
          <CardDescription>Direct child organizations of your organization, counted by the organizations list.</CardDescription>
        </div>
        <div className="flex items-center gap-2">
          <Switch id={switchId} checked={includeAll} onCheckedChange={setIncludeAll} />
          <Label htmlFor={switchId}>{d.includeAll}</Label>
        </div>
      </CardHeader>
      <CardContent>
        {error ? (
          <QueryError error={error} title={d.fetchError} onRetry={refetch} />
        ) : isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : (
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {counts.map(({ status, count }) => (
              <div key={status} className="rounded-lg border p-3">
                <dt className="text-xs text-muted-foreground capitalize">{status}</dt>
                <dd className="text-xl font-semibold tabular-nums" data-testid={`children-${status}`}>
                  {count}
                </dd>
              </div>
            ))}
            {includeAll && (
              <div className="rounded-lg border p-3">
                <dt className="text-xs text-muted-foreground">Total</dt>
                <dd className="text-xl font-semibold tabular-nums" data-testid="children-total">
                  {total}
                </dd>
              </div>
            )}
          </dl>
        )}
      </CardContent>
    </Card>
  );
}
