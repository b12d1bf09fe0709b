import { IDENTITY, type ResponseOf, type scimTokensEndpoints } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { ScrollText } from 'lucide-react';
import { identityQueries } from '@/api/identity';
import { ResponsiveDataTable } from '@/components/data-table';
import { Freshness } from '@/components/freshness';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';

const c = MESSAGES.identityPages.calls;

type Call = ResponseOf<typeof scimTokensEndpoints.calls>['items'][number];

/** The answer's status, marked as a failure from 400 on. */
function Status({ call }: { call: Call }) {
  return <Badge variant={call.status >= 400 ? 'destructive' : 'secondary'}>{call.status}</Badge>;
}

const tokenOf = (call: Call) => (call.token ? `${call.token.name} (${call.token.prefix})` : c.noToken);

function Request({ call }: { call: Call }) {
  return (
    <span className="font-mono text-xs break-all">
      {call.method} {call.path}
    </span>
  );
}

/** One call as a card, for narrow screens. */
function CallItem({ call }: { call: Call }) {
  return (
    <li className="grid gap-2 rounded-md border p-3 text-sm">
      <div className="flex items-start justify-between gap-2">
        <Request call={call} />
        <Status call={call} />
      </div>
      <p className="break-words">{call.outcome}</p>
      <p className="text-xs text-muted-foreground">
        {formatDateTime(call.created_at)} · {tokenOf(call)}
      </p>
    </li>
  );
}

/**
 * The provider's last provisioning calls, newest first: when, the request, its status and
 * outcome, and the token it used. Refreshes itself while shown, as the provider calls at any time.
 */
export function ProvisioningLogCard({ organizationId }: { organizationId: string }) {
  const calls = useQuery(identityQueries.scimCalls(organizationId));
  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1.5">
          <IconCardTitle icon={ScrollText}>{c.title}</IconCardTitle>
          <CardDescription>{c.description(IDENTITY.callsShown)}</CardDescription>
        </div>
        {calls.isSuccess && (
          <Freshness updatedAt={calls.dataUpdatedAt} onRefresh={() => void calls.refetch()} refreshing={calls.isFetching} />
        )}
      </CardHeader>
      <CardContent>
        {calls.isPending ? (
          <LoadingRows rows={3} />
        ) : calls.isError ? (
          <QueryError error={calls.error} title={c.loadFailed} onRetry={calls.refetch} />
        ) : calls.data.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">{c.none}</p>
        ) : (
          <ResponsiveDataTable
            label={c.listLabel}
            rows={calls.data.items}
            columns={[
              { head: c.time, cell: (call) => formatDateTime(call.created_at) },
              { head: c.request, className: 'whitespace-normal', cell: (call) => <Request call={call} /> },
              { head: c.status, cell: (call) => <Status call={call} /> },
              { head: c.outcome, className: 'whitespace-normal', cell: (call) => <span className="break-words">{call.outcome}</span> },
              { head: c.token, className: 'whitespace-normal', cell: tokenOf },
            ]}
            card={(call) => <CallItem call={call} />}
          />
        )}
      </CardContent>
    </Card>
  );
}
