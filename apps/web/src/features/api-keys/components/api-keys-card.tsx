import { type ApiKey } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { IconCardTitle } from '@/components/icon-card-title';
import { apiKeyQueries, useRevokeApiKey } from '@/api/api-keys';
import { ConfirmButton } from '@/components/confirm-button';
import { ResponsiveDataTable } from '@/components/data-table';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { formatLedgerDate } from '@/lib/credit-format';
import { cn } from '@/lib/utils';
import { CreateApiKeyDialog } from './create-api-key-dialog';
import { API_SCOPE_LABELS } from '../scope-labels';
import { MESSAGES } from '@/lib/wording';

const k = MESSAGES.apiKeyPages;

function RevokeButton({ organizationId, apiKey }: { organizationId: string; apiKey: ApiKey }) {
  const revoke = useRevokeApiKey(organizationId);
  return (
    <ConfirmButton
      label={k.revoke}
      subject={apiKey.name}
      pending={revoke.isPending}
      title={k.revokeTitle(apiKey.name)}
      description={k.revokeBody}
      onConfirm={() =>
        // The refetch that follows replaces this button with the Revoked badge, possibly before the
        // mutation settles; callbacks given to mutate() would then never run, so the toast
        // follows the promise, which settles either way.
        void revoke.mutateAsync(apiKey.id).then(
          () => toast.success(k.revoked(apiKey.name)),
          (error: Error) => toast.error(k.revokeFailed, { description: error.message }),
        )
      }
    />
  );
}

function Scopes({ apiKey }: { apiKey: ApiKey }) {
  return (
    <div className="flex flex-wrap gap-1">
      {apiKey.scopes.map((scope) => (
        <Badge key={scope} variant="secondary" title={API_SCOPE_LABELS[scope].description}>
          {API_SCOPE_LABELS[scope].label}
        </Badge>
      ))}
    </div>
  );
}

const creatorOf = (key: ApiKey) => key.created_by?.name || key.created_by?.email || '–';

/** One key as a card, for narrow screens where the table's columns do not fit. */
function ApiKeyCard({ organizationId, apiKey, mayManage }: { organizationId: string; apiKey: ApiKey; mayManage: boolean }) {
  return (
    <li className={cn('space-y-3 rounded-md border p-4', apiKey.revoked_at && 'text-muted-foreground')}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium break-words">{apiKey.name}</p>
          <code className="text-xs">{apiKey.prefix}</code>
        </div>
        {apiKey.revoked_at && <Badge variant="outline">{k.revokedBadge}</Badge>}
      </div>
      <Scopes apiKey={apiKey} />
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Created by</dt>
        <dd className="break-words">{creatorOf(apiKey)}</dd>
        <dt className="text-muted-foreground">Created</dt>
        <dd>{formatLedgerDate(apiKey.created_at)}</dd>
        <dt className="text-muted-foreground">Last used</dt>
        <dd>{apiKey.last_used_at ? formatLedgerDate(apiKey.last_used_at) : k.neverUsed}</dd>
        <dt className="text-muted-foreground">Uses</dt>
        <dd className="tabular-nums">{apiKey.use_count.toLocaleString('en-US')}</dd>
      </dl>
      {mayManage && !apiKey.revoked_at && <RevokeButton organizationId={organizationId} apiKey={apiKey} />}
    </li>
  );
}

/**
 * API keys of the own organization, for its admins only (the page shows this card only to
 * them): each key's name, visible prefix, scopes, creator, creation, last use and use count;
 * Create key shows the secret once; Revoke after a confirmation. Both only when `mayManage`
 * (not while the organization or one above it is frozen).
 */
export function ApiKeysCard({
  organizationId,
  organizationName,
  mayManage,
}: {
  organizationId: string;
  organizationName: string;
  mayManage: boolean;
}) {
  const keys = useQuery(apiKeyQueries.list(organizationId));
  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1.5">
          <IconCardTitle icon={KeyRound}>{k.title}</IconCardTitle>
          <CardDescription>{k.description(organizationName)}</CardDescription>
        </div>
        {mayManage && <CreateApiKeyDialog organizationId={organizationId} />}
      </CardHeader>
      <CardContent>
        {keys.isPending ? (
          <LoadingRows rows={2} />
        ) : keys.isError ? (
          <QueryError error={keys.error} title={k.loadFailed} onRetry={keys.refetch} />
        ) : keys.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{k.empty}</p>
        ) : (
          <ResponsiveDataTable
            label={k.title}
            columns={[
              { head: 'Name', className: 'font-medium', cell: (key) => key.name },
              { head: 'Prefix', cell: (key) => <code className="text-xs">{key.prefix}</code> },
              { head: 'Scopes', cell: (key) => <Scopes apiKey={key} /> },
              { head: 'Created by', cell: creatorOf },
              { head: 'Created', cell: (key) => formatLedgerDate(key.created_at) },
              { head: 'Last used', cell: (key) => (key.last_used_at ? formatLedgerDate(key.last_used_at) : k.neverUsed) },
              {
                head: 'Uses',
                headClassName: 'text-right',
                className: 'text-right tabular-nums',
                cell: (key) => key.use_count.toLocaleString('en-US'),
              },
              {
                head: 'Actions',
                headClassName: 'sr-only',
                className: 'text-right',
                cell: (key) =>
                  key.revoked_at ? (
                    <Badge variant="outline" title={formatLedgerDate(key.revoked_at)}>
                      {k.revokedBadge}
                    </Badge>
                  ) : (
                    mayManage && <RevokeButton organizationId={organizationId} apiKey={key} />
                  ),
              },
            ]}
            rows={keys.data}
            rowClassName={(key) => cn(key.revoked_at && 'text-muted-foreground')}
            card={(key) => <ApiKeyCard organizationId={organizationId} apiKey={key} mayManage={mayManage} />}
          />
        )}
      </CardContent>
    </Card>
  );
}
