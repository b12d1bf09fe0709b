import { WEBHOOK_EVENT_TYPES, WEBHOOKS, type WebhookEndpoint } from '@console/domain';
import { ScrollText, Send } from 'lucide-react';
import { Link } from 'react-router';
import { ConfirmButton } from '@/components/confirm-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useDeleteWebhookEndpoint, useSendWebhookTest, useUpdateWebhookEndpoint } from '@/api/webhooks';
import { announce } from '@/lib/announce';
import { formatDateTime } from '@/lib/dates';
import { webhookDeliveriesHref } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { MESSAGES } from '../wording';
import { WEBHOOK_EVENT_LABELS } from '../event-labels';
import { EditEndpointDialog, type EndpointEditProps } from './endpoint-dialog';
import { RotateSecretDialog } from './rotate-secret-dialog';

const w = MESSAGES.webhookPages;

/** How many event codes the card names before "+N more". */
const EVENTS_NAMED = 3;

/** The endpoint's events, compactly: "All events (21)", or the first few codes and how many more (all of them in the tooltip). */
export function EventTypesSummary({ types }: { types: WebhookEndpoint['event_types'] }) {
  if (types.length === WEBHOOK_EVENT_TYPES.length) return <span>{w.allEvents(types.length)}</span>;
  const named = types.slice(0, EVENTS_NAMED);
  return (
    <span className="flex min-w-0 flex-wrap gap-1" title={types.join(', ')}>
      {named.map((type) => (
        <Badge
          key={type}
          variant="secondary"
          className="max-w-full font-mono whitespace-normal break-all"
          title={WEBHOOK_EVENT_LABELS[type]}
        >
          {type}
        </Badge>
      ))}
      {types.length > named.length && <Badge variant="outline">{w.moreEvents(types.length - named.length)}</Badge>}
    </span>
  );
}

/** Enabled, or Disabled with why (by an admin, after failing for days, or a 410 Gone) and since when. */
export function EndpointStateBadge({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.enabled) return <Badge variant="secondary">{w.stateEnabled}</Badge>;
  const reason = endpoint.disabled_reason ? w.disabledReasons[endpoint.disabled_reason](WEBHOOKS.disableAfterFailingHours) : null;
  return (
    <span className="grid gap-0.5">
      <Badge variant="outline">{w.stateDisabled}</Badge>
      {reason && (
        <span className="text-xs text-muted-foreground">
          {reason}
          {endpoint.disabled_at && ` · ${formatDateTime(endpoint.disabled_at)}`}
        </span>
      )}
    </span>
  );
}

/** Send test event, Edit, Enable or Disable, Rotate secret and Delete: the changes, for those who may make them. */
function EndpointActions({ organizationId, endpoint, offersSubtree }: EndpointEditProps) {
  const update = useUpdateWebhookEndpoint(organizationId);
  const remove = useDeleteWebhookEndpoint(organizationId);
  const test = useSendWebhookTest(organizationId);
  return (
    <>
      {/* The server sends no test to a disabled endpoint. */}
      {endpoint.enabled && (
        <Button
          variant="outline"
          size="sm"
          aria-label={`${w.test} ${endpoint.url}`}
          disabled={test.isPending}
          onClick={() => announce(test.mutateAsync(endpoint.id), w.testSent, w.testFailed)}
        >
          <Send aria-hidden />
          {w.test}
        </Button>
      )}
      <EditEndpointDialog organizationId={organizationId} endpoint={endpoint} offersSubtree={offersSubtree} />
      <Button
        variant="outline"
        size="sm"
        aria-label={`${endpoint.enabled ? w.disable : w.enable} ${endpoint.url}`}
        disabled={update.isPending}
        onClick={() =>
          announce(
            update.mutateAsync({ endpointId: endpoint.id, body: { enabled: !endpoint.enabled } }),
            endpoint.enabled ? w.disabledToast : w.enabledToast,
            w.toggleFailed,
          )
        }
      >
        {endpoint.enabled ? w.disable : w.enable}
      </Button>
      <RotateSecretDialog organizationId={organizationId} endpoint={endpoint} />
      <ConfirmButton
        label={w.remove}
        subject={endpoint.url}
        pending={remove.isPending}
        title={w.removeTitle}
        description={w.removeBody(endpoint.url)}
        onConfirm={() => announce(remove.mutateAsync(endpoint.id), w.removed, w.removeFailed)}
      />
    </>
  );
}

/** Whether the secret before the last rotation still signs: its grace period has not ended. */
const stillSigns = (endpoint: WebhookEndpoint) =>
  endpoint.previous_secret_expires_at !== null && Date.parse(endpoint.previous_secret_expires_at) > Date.now();

/**
 * One endpoint: its URL and description, state, events, whether the organizations below count,
 * when it last delivered, since when it fails, what waits or failed lately, and after a rotation
 * until when the old secret still signs; a link to its delivery log for everyone who sees the
 * page, the changes only when `mayManage`.
 */
export function EndpointCard({
  organizationId,
  endpoint,
  mayManage,
  offersSubtree,
}: {
  organizationId: string;
  endpoint: WebhookEndpoint;
  mayManage: boolean;
  offersSubtree: boolean;
}) {
  return (
    <li className={cn('grid min-w-0 gap-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6', !endpoint.enabled && 'text-muted-foreground')}>
      <div className="flex min-w-0 flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1">
          <h2 className="font-mono text-sm font-semibold break-all text-foreground">{endpoint.url}</h2>
          {endpoint.description && <p className="text-sm break-words">{endpoint.description}</p>}
        </div>
        <EndpointStateBadge endpoint={endpoint} />
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm lg:grid-cols-3">
        <div className="col-span-2 grid min-w-0 gap-1 lg:col-span-3">
          <dt className="text-muted-foreground">{w.eventsLabel}</dt>
          <dd className="min-w-0">
            <EventTypesSummary types={endpoint.event_types} />
          </dd>
        </div>
        <div className="grid gap-1">
          <dt className="text-muted-foreground">{w.subtreeLabel}</dt>
          <dd>{endpoint.include_subtree ? w.subtreeYes : w.subtreeNo}</dd>
        </div>
        <div className="grid gap-1">
          <dt className="text-muted-foreground">{w.lastSuccess}</dt>
          <dd>{endpoint.last_success_at ? formatDateTime(endpoint.last_success_at) : w.never}</dd>
        </div>
        <div className="grid gap-1">
          <dt className="text-muted-foreground">{w.failingSince}</dt>
          <dd className={cn(endpoint.failing_since && 'font-medium text-destructive')}>
            {endpoint.failing_since ? formatDateTime(endpoint.failing_since) : w.notFailing}
          </dd>
        </div>
        <div className="grid gap-1">
          <dt className="text-muted-foreground">{w.pending}</dt>
          <dd className="tabular-nums">{endpoint.pending.toLocaleString('en-US')}</dd>
        </div>
        <div className="grid gap-1">
          <dt className="text-muted-foreground">{w.failedRecently}</dt>
          <dd className={cn('tabular-nums', endpoint.failed_recently > 0 && 'font-medium text-destructive')}>
            {endpoint.failed_recently.toLocaleString('en-US')}
          </dd>
        </div>
      </dl>
      {stillSigns(endpoint) && (
        <p className="text-sm" data-testid="old-secret">
          {w.oldSecretSigns(formatDateTime(endpoint.previous_secret_expires_at!))}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <Link to={webhookDeliveriesHref(endpoint.id)} aria-label={`${w.log} ${endpoint.url}`}>
            <ScrollText aria-hidden />
            {w.log}
          </Link>
        </Button>
        {mayManage && <EndpointActions organizationId={organizationId} endpoint={endpoint} offersSubtree={offersSubtree} />}
      </div>
    </li>
  );
}
