import {
  API_KEY_FILTERS,
  API_KEY_LIFECYCLE,
  isLiveApiKeyState,
  isSeller,
  type ApiKey,
  type ApiKeyFilter,
  type ApiKeyState,
  type OrgType,
} from '@console/domain';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { IconCardTitle } from '@/components/icon-card-title';
import { CapUsageText, WindowCapsText } from '@/components/billing/cap-usage';
import { apiKeyQueries, useRevokeApiKey } from '@/api/api-keys';
import { settingsQueries } from '@/api/settings';
import { ConfirmButton } from '@/components/confirm-button';
import { ResponsiveDataTable } from '@/components/data-table';
import { FilterSelect } from '@/components/filter-select';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { formatDateTime } from '@/lib/dates';
import { cn } from '@/lib/utils';
import { CreateApiKeyDialog } from './create-api-key-dialog';
import { EditApiKeyDialog, type KeyEditProps } from './edit-api-key-dialog';
import { RollApiKeyDialog } from './roll-api-key-dialog';
import { API_SCOPE_LABELS } from '../scope-labels';
import { MESSAGES } from '../wording';
import { announce } from '@/lib/announce';

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
      // The refetch that follows replaces this button with the Revoked badge, possibly before the mutation settles.
      onConfirm={() => announce(revoke.mutateAsync(apiKey.id), k.revoked(apiKey.name), k.revokeFailed)}
    />
  );
}

const STATE_BADGES: Record<ApiKeyState, 'default' | 'secondary' | 'outline' | 'destructive'> = {
  live: 'secondary',
  expiring: 'default',
  expired: 'outline',
  revoked: 'outline',
};

/**
 * Whether an expiring key is so because its own end date is near; otherwise it is the old
 * secret's grace after a roll that is ending, and the key itself may never expire.
 */
function endsSoon(apiKey: ApiKey): boolean {
  if (!apiKey.expires_at) return false;
  return Date.parse(apiKey.expires_at) - Date.now() <= API_KEY_LIFECYCLE.expiringWithinDays * 86_400_000;
}

/** Where the key stands (live, expiring, expired, revoked), with the moment it ended or ends when known. */
function StateBadge({ apiKey }: { apiKey: ApiKey }) {
  const oldSecret = apiKey.state === 'expiring' && !endsSoon(apiKey);
  const when = apiKey.revoked_at ?? (oldSecret ? apiKey.previous_expires_at : apiKey.expires_at);
  return (
    <Badge variant={STATE_BADGES[apiKey.state]} title={when ? formatDateTime(when) : undefined}>
      {oldSecret ? k.oldSecretEnding : k.states[apiKey.state]}
    </Badge>
  );
}

/** The key's prefix, and its old secret's while that still works, with its end. */
function Prefixes({ apiKey }: { apiKey: ApiKey }) {
  return (
    <div className="grid gap-0.5">
      <code className="text-xs">{apiKey.prefix}</code>
      {apiKey.previous_prefix && apiKey.previous_expires_at && (
        <span className="text-xs text-muted-foreground">
          {k.oldSecret(apiKey.previous_prefix, formatDateTime(apiKey.previous_expires_at))}
        </span>
      )}
    </div>
  );
}

/** Edit, Roll and Revoke, each exactly when the server would take it: Edit and Roll for live keys, Revoke for any not revoked. */
function KeyActions({ organizationId, apiKey, rateLimitCeiling }: KeyEditProps) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      {isLiveApiKeyState(apiKey.state) && (
        <>
          <EditApiKeyDialog organizationId={organizationId} apiKey={apiKey} rateLimitCeiling={rateLimitCeiling} />
          <RollApiKeyDialog organizationId={organizationId} apiKey={apiKey} />
        </>
      )}
      {apiKey.state !== 'revoked' && <RevokeButton organizationId={organizationId} apiKey={apiKey} />}
    </div>
  );
}

const rateLimitText = (key: ApiKey) => (key.rate_limit_per_minute === null ? k.defaultLimit : k.perMinute(key.rate_limit_per_minute));
const isDead = (key: ApiKey) => key.state === 'revoked' || key.state === 'expired';

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
function ApiKeyCard({
  organizationId,
  apiKey,
  mayManage,
  rateLimitCeiling,
}: {
  organizationId: string;
  apiKey: ApiKey;
  mayManage: boolean;
  rateLimitCeiling: number | null;
}) {
  return (
    <li className={cn('space-y-3 rounded-md border p-4', isDead(apiKey) && 'text-muted-foreground')}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium break-words">{apiKey.name}</p>
          <Prefixes apiKey={apiKey} />
        </div>
        <StateBadge apiKey={apiKey} />
      </div>
      <Scopes apiKey={apiKey} />
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Created by</dt>
        <dd className="break-words">{creatorOf(apiKey)}</dd>
        <dt className="text-muted-foreground">Created</dt>
        <dd>{formatDateTime(apiKey.created_at)}</dd>
        <dt className="text-muted-foreground">Expires</dt>
        <dd>{apiKey.expires_at ? formatDateTime(apiKey.expires_at) : k.neverExpires}</dd>
        <dt className="text-muted-foreground">Last used</dt>
        <dd>{apiKey.last_used_at ? formatDateTime(apiKey.last_used_at) : k.neverUsed}</dd>
        <dt className="text-muted-foreground">Uses</dt>
        <dd className="tabular-nums">{apiKey.use_count.toLocaleString('en-US')}</dd>
        <dt className="text-muted-foreground">Rate limit</dt>
        <dd>{rateLimitText(apiKey)}</dd>
        <dt className="text-muted-foreground">Monthly cap</dt>
        <dd>
          <CapUsageText usage={apiKey.monthly_cap} />
          <WindowCapsText daily={apiKey.daily_cap} weekly={apiKey.weekly_cap} />
        </dd>
      </dl>
      {mayManage && <KeyActions organizationId={organizationId} apiKey={apiKey} rateLimitCeiling={rateLimitCeiling} />}
    </li>
  );
}

/**
 * API keys of the own organization, for its admins only (the page shows this card only to
 * them), live keys first and then newest, a page at a time with Load more, filtered by state:
 * each key's name, prefix (and its old secret's while it still works), state, scopes, creator,
 * creation, end date, last use, use count and rate limit. Create key and Roll show the secret
 * once; Edit, Roll and Revoke only when `mayManage` (not while the organization or one above
 * it is frozen) and the key's state allows them.
 */
export function ApiKeysCard({
  organizationId,
  organizationName,
  organizationType,
  mayManage,
}: {
  organizationId: string;
  organizationName: string;
  organizationType: OrgType;
  mayManage: boolean;
}) {
  const [state, setState] = useState<ApiKeyFilter | null>(null);
  const keys = useInfiniteQuery(apiKeyQueries.list(organizationId, state));
  const settings = useQuery(settingsQueries.global());
  const ceiling = settings.data?.api_key_rate_limit_ceiling ?? null;
  const rows = keys.data?.pages.flatMap((page) => page.api_keys) ?? [];
  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1.5">
          <IconCardTitle icon={KeyRound}>{k.title}</IconCardTitle>
          <CardDescription>{k.description(organizationName, isSeller({ org_type: organizationType }))}</CardDescription>
        </div>
        {mayManage && <CreateApiKeyDialog organizationId={organizationId} rateLimitCeiling={ceiling} />}
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex items-center gap-2">
          <Label htmlFor="api-key-state">{k.filterLabel}</Label>
          <FilterSelect<ApiKeyFilter>
            id="api-key-state"
            className="w-fit"
            value={state}
            onChange={setState}
            all={k.filterAll}
            options={API_KEY_FILTERS}
            labelOf={(filter) => k.filters[filter]}
          />
        </div>
        {keys.isPending ? (
          <LoadingRows rows={2} />
        ) : keys.isError ? (
          <QueryError error={keys.error} title={k.loadFailed} onRetry={keys.refetch} />
        ) : rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">{state ? k.emptyFiltered : k.empty}</p>
        ) : (
          <>
            <ResponsiveDataTable
              label={k.title}
              columns={[
                // Six columns, each of two lines, so the actions stay in view beside the menu at 1280 px.
                {
                  head: 'Key',
                  className: 'min-w-48 whitespace-normal',
                  cell: (key) => (
                    <div className="grid max-w-64 gap-0.5">
                      <span className="font-medium break-words">{key.name}</span>
                      <Prefixes apiKey={key} />
                    </div>
                  ),
                },
                {
                  head: 'State',
                  className: 'whitespace-normal',
                  cell: (key) => (
                    <div className="grid gap-1">
                      <StateBadge apiKey={key} />
                      <span className="text-xs text-muted-foreground">
                        {key.expires_at ? k.endsOn(formatDateTime(key.expires_at)) : k.noExpiry}
                      </span>
                    </div>
                  ),
                },
                { head: 'Scopes', cell: (key) => <Scopes apiKey={key} /> },
                {
                  head: 'Created',
                  cell: (key) => (
                    <div className="grid gap-0.5">
                      <span>{formatDateTime(key.created_at)}</span>
                      <span className="text-xs text-muted-foreground">{k.createdBy(creatorOf(key))}</span>
                    </div>
                  ),
                },
                {
                  head: 'Use',
                  cell: (key) => (
                    <div className="grid gap-0.5">
                      <span>{key.last_used_at ? k.lastUsedOn(formatDateTime(key.last_used_at)) : k.notUsed}</span>
                      <span className="text-xs text-muted-foreground">{k.usesAndLimit(key.use_count, rateLimitText(key))}</span>
                      <CapUsageText usage={key.monthly_cap} className="text-xs" />
                      <WindowCapsText daily={key.daily_cap} weekly={key.weekly_cap} className="text-xs" />
                    </div>
                  ),
                },
                {
                  head: 'Actions',
                  headClassName: 'sr-only',
                  className: 'text-right',
                  cell: (key) => mayManage && <KeyActions organizationId={organizationId} apiKey={key} rateLimitCeiling={ceiling} />,
                },
              ]}
              rows={rows}
              rowClassName={(key) => cn(isDead(key) && 'text-muted-foreground')}
              card={(key) => <ApiKeyCard organizationId={organizationId} apiKey={key} mayManage={mayManage} rateLimitCeiling={ceiling} />}
            />
            {keys.hasNextPage && (
              <Button variant="outline" className="w-fit" onClick={() => void keys.fetchNextPage()} disabled={keys.isFetchingNextPage}>
                {keys.isFetchingNextPage ? 'Loading…' : k.loadMore}
              </Button>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
