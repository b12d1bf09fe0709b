import { UI, type WebhookAttempt, type WebhookDelivery, type WebhookDeliveryState } from '@console/domain';
import { ChevronDown, ChevronRight, RotateCw } from 'lucide-react';
import { Fragment, useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useRedeliverWebhook } from '@/api/webhooks';
import { announce } from '@/lib/announce';
import { formatDateTime } from '@/lib/dates';
import { useMediaQuery } from '@/lib/use-media-query';
import { MESSAGES } from '../wording';
import { WEBHOOK_EVENT_LABELS } from '../event-labels';

const w = MESSAGES.webhookPages;

/** How much of a receiver's answer an attempt shows: enough to recognise it, never a page of HTML. */
export const BODY_PREVIEW_CHARS = 200;

const STATE_BADGES: Record<WebhookDeliveryState, 'default' | 'secondary' | 'outline' | 'destructive'> = {
  pending: 'outline',
  delivered: 'secondary',
  failed: 'destructive',
};

function StateBadge({ state }: { state: WebhookDeliveryState }) {
  return <Badge variant={STATE_BADGES[state]}>{w.states[state]}</Badge>;
}

const lastOf = (delivery: WebhookDelivery): WebhookAttempt | undefined => delivery.recent_attempts[0];
const statusText = (attempt: WebhookAttempt | undefined) => (attempt?.status_code != null ? String(attempt.status_code) : w.noStatus);
const msText = (attempt: WebhookAttempt | undefined) => (attempt?.response_ms != null ? w.ms(attempt.response_ms) : '–');
const cut = (text: string) => (text.length > BODY_PREVIEW_CHARS ? `${text.slice(0, BODY_PREVIEW_CHARS)}…` : text);

/** The event's type as its code, with what it means beneath. */
function EventName({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <span className="grid min-w-0 gap-0.5">
      <code className="text-xs break-words">{delivery.event.type}</code>
      <span className="text-xs text-muted-foreground">{WEBHOOK_EVENT_LABELS[delivery.event.type]}</span>
    </span>
  );
}

/** A delivery's last attempts, newest first: when, the status (or why none came), how long, and the start of the answer. */
function AttemptsList({ delivery, id }: { delivery: WebhookDelivery; id: string }) {
  if (delivery.recent_attempts.length === 0) {
    return (
      <p id={id} className="text-sm text-muted-foreground">
        {w.noAttempts}
      </p>
    );
  }
  return (
    <ol id={id} className="grid min-w-0 gap-3" aria-label={w.attemptsOf(delivery.event.type)}>
      {delivery.recent_attempts.map((attempt, index) => (
        <li key={`${attempt.attempted_at}-${index}`} className="grid min-w-0 gap-1 rounded-md border bg-muted/30 p-3 text-sm">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="font-medium">{formatDateTime(attempt.attempted_at)}</span>
            <Badge variant={attempt.status_code !== null && attempt.status_code < 300 ? 'secondary' : 'outline'}>
              {w.attemptStatus(attempt.status_code)}
            </Badge>
            {attempt.response_ms !== null && <span className="text-muted-foreground tabular-nums">{w.ms(attempt.response_ms)}</span>}
          </div>
          {attempt.error && <p className="break-words text-destructive">{attempt.error}</p>}
          {attempt.response_body && (
            <div className="grid min-w-0 gap-1">
              <span className="text-xs text-muted-foreground">{w.responseBody}</span>
              <pre className="max-w-full overflow-hidden rounded-sm bg-muted p-2 font-mono text-xs whitespace-pre-wrap break-all">
                {cut(attempt.response_body)}
              </pre>
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}

/** Show attempts / Hide attempts, naming the delivery for assistive technology. */
function ToggleAttempts({
  delivery,
  open,
  controls,
  onToggle,
}: {
  delivery: WebhookDelivery;
  open: boolean;
  controls: string;
  onToggle(): void;
}) {
  const Icon = open ? ChevronDown : ChevronRight;
  return (
    <Button
      variant="ghost"
      size="sm"
      className="-ml-2"
      aria-expanded={open}
      aria-controls={open ? controls : undefined}
      aria-label={`${open ? w.hideAttempts : w.showAttempts}: ${delivery.event.type}, ${formatDateTime(delivery.event.created_at)}`}
      onClick={onToggle}
    >
      <Icon aria-hidden />
      {open ? w.hideAttempts : w.showAttempts}
    </Button>
  );
}

function RedeliverButton({
  organizationId,
  endpointId,
  delivery,
}: {
  organizationId: string;
  endpointId: string;
  delivery: WebhookDelivery;
}) {
  const redeliver = useRedeliverWebhook(organizationId, endpointId);
  return (
    <Button
      variant="outline"
      size="sm"
      aria-label={`${w.redeliver}: ${delivery.event.type}, ${formatDateTime(delivery.event.created_at)}`}
      disabled={redeliver.isPending}
      onClick={() => announce(redeliver.mutateAsync(delivery.id), w.redelivered, w.redeliverFailed)}
    >
      <RotateCw aria-hidden />
      {w.redeliver}
    </Button>
  );
}

interface RowProps {
  organizationId: string;
  endpointId: string;
  delivery: WebhookDelivery;
  mayManage: boolean;
}

const COLUMNS = [w.eventType, w.organization, w.time, w.state, w.attempts, w.lastStatus, w.lastResponseTime, w.nextAttempt];

/** A delivery as a table row, and its attempts in a row beneath while it is open. */
function DeliveryRow({ organizationId, endpointId, delivery, mayManage }: RowProps) {
  const [open, setOpen] = useState(false);
  const attemptsId = useId();
  const last = lastOf(delivery);
  return (
    <Fragment>
      <TableRow>
        <TableCell className="whitespace-normal">
          <div className="grid gap-1">
            <EventName delivery={delivery} />
            <ToggleAttempts delivery={delivery} open={open} controls={attemptsId} onToggle={() => setOpen((was) => !was)} />
          </div>
        </TableCell>
        <TableCell className="max-w-48 whitespace-normal break-words">{delivery.event.organization.name}</TableCell>
        <TableCell className="whitespace-normal">{formatDateTime(delivery.event.created_at)}</TableCell>
        <TableCell>
          <StateBadge state={delivery.state} />
        </TableCell>
        <TableCell className="tabular-nums">{delivery.attempts}</TableCell>
        <TableCell className="tabular-nums">{statusText(last)}</TableCell>
        <TableCell className="tabular-nums">{msText(last)}</TableCell>
        <TableCell className="whitespace-normal">{delivery.next_attempt_at ? formatDateTime(delivery.next_attempt_at) : '–'}</TableCell>
        <TableCell className="text-right">
          {mayManage && <RedeliverButton organizationId={organizationId} endpointId={endpointId} delivery={delivery} />}
        </TableCell>
      </TableRow>
      {open && (
        <TableRow className="hover:bg-transparent">
          <TableCell colSpan={COLUMNS.length + 1} className="whitespace-normal">
            <AttemptsList delivery={delivery} id={attemptsId} />
          </TableCell>
        </TableRow>
      )}
    </Fragment>
  );
}

/** A delivery as a card, for narrow screens where the table's columns do not fit. */
function DeliveryCard({ organizationId, endpointId, delivery, mayManage }: RowProps) {
  const [open, setOpen] = useState(false);
  const attemptsId = useId();
  const last = lastOf(delivery);
  return (
    <li className="grid min-w-0 gap-3 rounded-md border p-4">
      <div className="flex items-start justify-between gap-3">
        <EventName delivery={delivery} />
        <StateBadge state={delivery.state} />
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">{w.organization}</dt>
        <dd className="min-w-0 break-words">{delivery.event.organization.name}</dd>
        <dt className="text-muted-foreground">{w.time}</dt>
        <dd>{formatDateTime(delivery.event.created_at)}</dd>
        <dt className="text-muted-foreground">{w.attempts}</dt>
        <dd className="tabular-nums">{delivery.attempts}</dd>
        <dt className="text-muted-foreground">{w.lastStatus}</dt>
        <dd className="tabular-nums">{statusText(last)}</dd>
        <dt className="text-muted-foreground">{w.lastResponseTime}</dt>
        <dd className="tabular-nums">{msText(last)}</dd>
        <dt className="text-muted-foreground">{w.nextAttempt}</dt>
        <dd>{delivery.next_attempt_at ? formatDateTime(delivery.next_attempt_at) : '–'}</dd>
      </dl>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <ToggleAttempts delivery={delivery} open={open} controls={attemptsId} onToggle={() => setOpen((was) => !was)} />
        {mayManage && <RedeliverButton organizationId={organizationId} endpointId={endpointId} delivery={delivery} />}
      </div>
      {open && <AttemptsList delivery={delivery} id={attemptsId} />}
    </li>
  );
}

/**
 * The deliveries of one endpoint: a table on a wide screen, cards on a narrow one. Each opens
 * to its last attempts; Redeliver only when `mayManage`.
 */
export function DeliveryLog({
  organizationId,
  endpointId,
  deliveries,
  mayManage,
}: {
  organizationId: string;
  endpointId: string;
  deliveries: WebhookDelivery[];
  mayManage: boolean;
}) {
  const wide = useMediaQuery(`(min-width: ${UI.narrowBreakpointPx}px)`);
  const props = { organizationId, endpointId, mayManage };
  if (!wide) {
    return (
      <ul className="grid min-w-0 gap-3" aria-label={w.deliveriesLabel}>
        {deliveries.map((delivery) => (
          <DeliveryCard key={delivery.id} delivery={delivery} {...props} />
        ))}
      </ul>
    );
  }
  return (
    <Table aria-label={w.deliveriesLabel}>
      <TableHeader>
        <TableRow>
          {COLUMNS.map((head) => (
            <TableHead key={head}>{head}</TableHead>
          ))}
          <TableHead className="sr-only">{w.redeliver}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {deliveries.map((delivery) => (
          <DeliveryRow key={delivery.id} delivery={delivery} {...props} />
        ))}
      </TableBody>
    </Table>
  );
}
