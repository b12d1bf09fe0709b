import { ORG_TYPE_LABELS } from '@console/domain';
import { RefreshCw, SearchCheck } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useQuery } from '@tanstack/react-query';
import { debugQueries } from '@/api/debug';
import { QueryError } from '@/components/query-error';
import { MESSAGES } from '../wording';

const d = MESSAGES.debugPages;

/** Direct children checked against the descendant procedure (GET /api/organizations/:id/verify-children). */
export function ChildOrganizationsDebugger({ organizationId }: { organizationId: string | null }) {
  const [requested, setRequested] = useState(false);
  // Runs only once requested (the Verify button); refetch() is the Refresh button.
  const result = useQuery({ ...debugQueries.verifyChildren(organizationId ?? ''), enabled: requested && !!organizationId });
  const summary = result.data?.summary;
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>{d.childDebugger}</CardTitle>
          <CardDescription>Compares the direct children with the ids the descendant procedure returns.</CardDescription>
        </div>
        <div className="flex gap-2">
          <Button size="sm" onClick={() => setRequested(true)} disabled={!organizationId || requested}>
            <SearchCheck aria-hidden />
            {d.verify}
          </Button>
          <Button size="sm" variant="outline" onClick={() => void result.refetch()} disabled={!requested || result.isFetching}>
            <RefreshCw aria-hidden className={result.isFetching ? 'animate-spin' : undefined} />
            {d.refresh}
          </Button>
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        {!requested ? (
          <p className="text-sm text-muted-foreground">Press Verify to run the check for your organization.</p>
        ) : result.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : result.isError ? (
          <QueryError error={result.error} title={d.fetchError} onRetry={result.refetch} />
        ) : (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Parent</dt>
              <dd>
                {result.data.parentOrganization.name} ({ORG_TYPE_LABELS[result.data.parentOrganization.org_type]})
              </dd>
              <dt className="text-muted-foreground">Direct children</dt>
              <dd data-testid="verify-direct">{summary!.directChildrenCount}</dd>
              <dt className="text-muted-foreground">Ids from the descendant procedure (self included)</dt>
              <dd data-testid="verify-rpc">{summary!.rpcReturnedIds}</dd>
              <dt className="text-muted-foreground">Children retrieved</dt>
              <dd data-testid="verify-retrieved">{summary!.childOrgsRetrieved}</dd>
            </dl>
            {result.data.childOrganizations.length > 0 && (
              <Table>
                <TableCaption className="sr-only">Child organizations</TableCaption>
                <TableHeader>
                  <TableRow>
                    <TableHead>Name</TableHead>
                    <TableHead>Type</TableHead>
                    <TableHead>Status</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {result.data.childOrganizations.map((child) => (
                    <TableRow key={child.id}>
                      <TableCell className="font-medium">{child.name}</TableCell>
                      <TableCell>{ORG_TYPE_LABELS[child.org_type]}</TableCell>
                      <TableCell className="capitalize">{child.status}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
