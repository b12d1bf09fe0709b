import { alertValueText, type AlertLine } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { BellRing } from 'lucide-react';
import { alertLineQueries, useDeleteAlertLine } from '@/api/billing';
import { ConfirmButton } from '@/components/confirm-button';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { announce } from '@/lib/announce';
import { MESSAGES } from '@/lib/wording';
import { AlertLineDialog } from './alert-line-dialog';

const a = MESSAGES.alertLinePages;

function LineRow({ organizationId, line, mayManage }: { organizationId: string; line: AlertLine; mayManage: boolean }) {
  const remove = useDeleteAlertLine(organizationId);
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2 py-2" data-testid="alert-line">
      <span className="grid min-w-0 gap-0.5">
        <span className="font-medium">{line.description}</span>
        <span className="text-xs text-muted-foreground">
          {line.low_balance_threshold && `${a.threshold} · `}
          {line.value !== null && a.now(alertValueText(line.kind, line.value))}
        </span>
      </span>
      <span className="inline-flex items-center gap-2">
        <Badge variant={line.crossed ? 'destructive' : 'secondary'}>{line.crossed ? a.crossed : a.armed}</Badge>
        {mayManage && <AlertLineDialog organizationId={organizationId} line={line} />}
        {mayManage && (
          <ConfirmButton
            label={a.delete}
            subject={line.description}
            pending={remove.isPending}
            title={a.deleteTitle}
            description={
              line.low_balance_threshold ? `${a.deleteBody(line.description)} ${a.deleteThreshold}` : a.deleteBody(line.description)
            }
            onConfirm={() => announce(remove.mutateAsync(line.id), a.deleted, a.deleteFailed)}
          />
        )}
      </span>
    </li>
  );
}

/**
 * The organization's alert lines, each with the bound it states, whether it is crossed now and
 * the value last seen. Everyone who reads the organization's billing sees them; Add, Edit and
 * Delete are offered when the server says the viewer may change them (its own admins).
 */
export function AlertLinesCard({ organizationId }: { organizationId: string }) {
  const query = useQuery(alertLineQueries.list(organizationId));
  const mayManage = query.data?.can_manage ?? false;

  let body;
  if (query.isPending) body = <LoadingRows rows={2} />;
  else if (query.isError) body = <QueryError error={query.error} title={a.loadFailed} onRetry={query.refetch} />;
  else if (query.data.lines.length === 0) body = <p className="text-sm text-muted-foreground">{a.none}</p>;
  else
    body = (
      <ul className="divide-y text-sm" aria-label={a.title}>
        {query.data.lines.map((line) => (
          <LineRow key={line.id} organizationId={organizationId} line={line} mayManage={mayManage} />
        ))}
      </ul>
    );

  const full = !!query.data && query.data.lines.length >= query.data.max;
  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1.5">
          <IconCardTitle icon={BellRing}>{a.title}</IconCardTitle>
          <CardDescription>
            {a.description}
            {full && ` ${a.limit(query.data.max)}`}
          </CardDescription>
        </div>
        {mayManage && !full && <AlertLineDialog organizationId={organizationId} />}
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
