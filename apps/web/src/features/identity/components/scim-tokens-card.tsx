import { IDENTITY, type ScimToken } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { identityQueries, useRevokeScimToken } from '@/api/identity';
import { ConfirmButton } from '@/components/confirm-button';
import { ResponsiveDataTable } from '@/components/data-table';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { announce } from '@/lib/announce';
import { formatDateTime } from '@/lib/dates';
import { cn } from '@/lib/utils';
import { MESSAGES } from '../wording';
import { CreateScimTokenDialog, RotateScimTokenDialog } from './scim-token-dialogs';

const w = MESSAGES.identityPages;
const s = w.scim;

const creatorOf = (token: ScimToken) => token.created_by?.name || token.created_by?.email || '–';
const lastUsedOf = (token: ScimToken) => (token.last_used_at ? formatDateTime(token.last_used_at) : w.never);

function StateBadge({ token }: { token: ScimToken }) {
  return token.revoked_at ? (
    <Badge variant="outline">{s.revokedOn(formatDateTime(token.revoked_at))}</Badge>
  ) : (
    <Badge variant="secondary">{s.live}</Badge>
  );
}

/** Rotate and Revoke, for a live token only (a revoked one is refused both). */
function TokenActions({ organizationId, token }: { organizationId: string; token: ScimToken }) {
  const revoke = useRevokeScimToken(organizationId);
  if (token.revoked_at) return null;
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <RotateScimTokenDialog organizationId={organizationId} token={token} />
      <ConfirmButton
        label={s.revoke}
        subject={token.name}
        pending={revoke.isPending}
        title={s.revokeTitle(token.name)}
        description={s.revokeBody}
        onConfirm={() => announce(revoke.mutateAsync(token.id), s.revoked(token.name), s.revokeFailed)}
      />
    </div>
  );
}

/** One token as a card, for narrow screens. */
function TokenItem({ organizationId, token, mayManage }: { organizationId: string; token: ScimToken; mayManage: boolean }) {
  return (
    <li className={cn('grid gap-3 rounded-md border p-4', token.revoked_at && 'text-muted-foreground')}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium break-words">{token.name}</p>
          <code className="text-xs">{token.prefix}</code>
        </div>
        <StateBadge token={token} />
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">{s.created}</dt>
        <dd className="break-words">
          {formatDateTime(token.created_at)} {s.createdBy(creatorOf(token))}
        </dd>
        <dt className="text-muted-foreground">{s.lastUsed}</dt>
        <dd>{lastUsedOf(token)}</dd>
      </dl>
      {mayManage && <TokenActions organizationId={organizationId} token={token} />}
    </li>
  );
}

/**
 * The organization's SCIM tokens: name, prefix, creator, last use, and state; Create (the
 * token shown once with the base URL), Rotate and Revoke when `mayManage`.
 */
export function ScimTokensCard({ organizationId, mayManage }: { organizationId: string; mayManage: boolean }) {
  const tokens = useQuery(identityQueries.scimTokens(organizationId));
  const items = tokens.data?.items ?? [];
  const live = items.filter((token) => !token.revoked_at).length;
  const full = live >= IDENTITY.maxScimTokens;
  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1.5">
          <IconCardTitle icon={KeyRound}>{s.title}</IconCardTitle>
          <CardDescription>{s.description(IDENTITY.maxScimTokens)}</CardDescription>
        </div>
        {mayManage && tokens.isSuccess && <CreateScimTokenDialog organizationId={organizationId} disabled={full} />}
      </CardHeader>
      <CardContent className="grid gap-3">
        {mayManage && full && <p className="text-sm text-muted-foreground">{s.limitReached(IDENTITY.maxScimTokens)}</p>}
        {tokens.isPending ? (
          <LoadingRows rows={2} />
        ) : tokens.isError ? (
          <QueryError error={tokens.error} title={s.loadFailed} onRetry={tokens.refetch} />
        ) : items.length === 0 ? (
          <p className="text-sm text-muted-foreground">{s.none}</p>
        ) : (
          <ResponsiveDataTable
            label={s.listLabel}
            rows={items}
            rowClassName={(token) => cn(token.revoked_at && 'text-muted-foreground')}
            columns={[
              {
                head: s.token,
                className: 'whitespace-normal',
                cell: (token) => (
                  <div className="grid max-w-64 gap-0.5">
                    <span className="font-medium break-words">{token.name}</span>
                    <code className="text-xs">{token.prefix}</code>
                  </div>
                ),
              },
              {
                head: s.created,
                cell: (token) => (
                  <div className="grid gap-0.5">
                    <span>{formatDateTime(token.created_at)}</span>
                    <span className="text-xs text-muted-foreground">{s.createdBy(creatorOf(token))}</span>
                    {token.rotated_at && (
                      <span className="text-xs text-muted-foreground">{s.rotatedOn(formatDateTime(token.rotated_at))}</span>
                    )}
                  </div>
                ),
              },
              { head: s.lastUsed, cell: lastUsedOf },
              { head: s.state, cell: (token) => <StateBadge token={token} /> },
              mayManage && {
                head: s.actions,
                headClassName: 'sr-only',
                className: 'text-right',
                cell: (token) => <TokenActions organizationId={organizationId} token={token} />,
              },
            ]}
            card={(token) => <TokenItem organizationId={organizationId} token={token} mayManage={mayManage} />}
          />
        )}
      </CardContent>
    </Card>
  );
}
