import { type OutboxMessage } from '@console/domain';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useQuery } from '@tanstack/react-query';
import { debugQueries } from '@/api/debug';
import { DataTable, type Column } from '@/components/data-table';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';

const d = MESSAGES.debugPages;

const COLUMNS: Column<OutboxMessage>[] = [
  { head: 'Recipient', cell: (message) => message.to },
  { head: 'Subject', className: 'whitespace-normal', cell: (message) => message.subject },
  { head: 'Created', cell: (message) => formatDateTime(message.created_at) },
  {
    head: 'Link',
    className: 'max-w-64 truncate',
    cell: (message) =>
      message.link ? (
        <a href={message.link} className="text-primary underline-offset-4 hover:underline" title={message.link}>
          {message.link}
        </a>
      ) : (
        '—'
      ),
  },
];

/** The last 50 messages of the mail outbox (house admins; mail goes here when no SMTP server is set). */
export function OutboxCard() {
  const outbox = useQuery(debugQueries.outbox());
  return (
    <Card>
      <CardHeader>
        <CardTitle>{d.tabOutbox}</CardTitle>
        <CardDescription>The last 50 messages written to the outbox, newest first. Links are live: share them with care.</CardDescription>
      </CardHeader>
      <CardContent>
        {outbox.isPending ? (
          <LoadingRows rows={2} className="h-8" />
        ) : outbox.isError ? (
          <QueryError error={outbox.error} title={d.fetchError} onRetry={outbox.refetch} />
        ) : outbox.data.messages.length === 0 ? (
          <p className="text-sm text-muted-foreground">{d.outboxEmpty}</p>
        ) : (
          <DataTable caption="Outbox messages" columns={COLUMNS} rows={outbox.data.messages} />
        )}
      </CardContent>
    </Card>
  );
}
