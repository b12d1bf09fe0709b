import { MESSAGES, type ApiKey } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { apiKeyQueries, useRevokeApiKey } from '@/api/api-keys';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { API_SCOPE_LABELS } from '@/lib/agents';
import { formatLedgerDate } from '@/lib/credit-format';
import { cn } from '@/lib/utils';
import { CreateApiKeyDialog } from './CreateApiKeyDialog';

const k = MESSAGES.apiKeyPages;

function RevokeButton({ organizationId, apiKey }: { organizationId: string; apiKey: ApiKey }) {
  const [open, setOpen] = useState(false);
  const revoke = useRevokeApiKey(organizationId);
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} disabled={revoke.isPending} aria-label={`${k.revoke} ${apiKey.name}`}>
        {k.revoke}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={k.revokeTitle(apiKey.name)}
        description={k.revokeBody}
        confirmLabel={k.revoke}
        destructive
        onConfirm={() =>
          revoke.mutate(apiKey.id, {
            onSuccess: () => toast.success(k.revoked(apiKey.name)),
            onError: (error) => toast.error(k.revokeFailed, { description: error.message }),
          })
        }
      />
    </>
  );
}

/**
 * API keys of the own organization, for its admins only (the page shows this card only to
 * them): each key's name, visible prefix, scopes, creator, creation, last use and use count;
 * Create key shows the secret once; Revoke after a confirmation. Both only when `mayManage`
 * (not while the organization or one above it is frozen).
 */
export function ApiKeysCard({ organizationId, organizationName, mayManage }: { organizationId: string; organizationName: string; mayManage: boolean }) {
  const keys = useQuery(apiKeyQueries.list(organizationId));
  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1.5">
          <CardTitle className="flex items-center gap-2 text-base">
            <KeyRound className="size-4 text-muted-foreground" aria-hidden />
            {k.title}
          </CardTitle>
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
          <Table aria-label={k.title}>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Prefix</TableHead>
                <TableHead>Scopes</TableHead>
                <TableHead>Created by</TableHead>
                <TableHead>Created</TableHead>
                <TableHead>Last used</TableHead>
                <TableHead className="text-right">Uses</TableHead>
                <TableHead className="sr-only">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {keys.data.map((key) => (
                <TableRow key={key.id} className={cn(key.revoked_at && 'text-muted-foreground')}>
                  <TableCell className="font-medium">{key.name}</TableCell>
                  <TableCell>
                    <code className="text-xs">{key.prefix}</code>
                  </TableCell>
                  <TableCell>
                    <div className="flex flex-wrap gap-1">
                      {key.scopes.map((scope) => (
                        <Badge key={scope} variant="secondary" title={API_SCOPE_LABELS[scope].description}>
                          {API_SCOPE_LABELS[scope].label}
                        </Badge>
                      ))}
                    </div>
                  </TableCell>
                  <TableCell>{key.created_by?.name || key.created_by?.email || '–'}</TableCell>
                  <TableCell>{formatLedgerDate(key.created_at)}</TableCell>
                  <TableCell>{key.last_used_at ? formatLedgerDate(key.last_used_at) : k.neverUsed}</TableCell>
                  <TableCell className="text-right tabular-nums">{key.use_count.toLocaleString('en-US')}</TableCell>
                  <TableCell className="text-right">
                    {key.revoked_at ? (
                      <Badge variant="outline" title={formatLedgerDate(key.revoked_at)}>
                        {k.revokedBadge}
                      </Badge>
                    ) : (
                      mayManage && <RevokeButton organizationId={organizationId} apiKey={key} />
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
