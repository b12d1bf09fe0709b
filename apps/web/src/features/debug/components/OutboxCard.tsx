import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useQuery } from '@tanstack/react-query';
import { debugQueries } from '@/api/debug';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { MESSAGES } from '@/lib/wording';

const d = MESSAGES.debugPages;

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
          <Table>
            <TableCaption className="sr-only">Outbox messages</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead>Recipient</TableHead>
                <TableHead>Subject</TableHead>
                <TableHead>Created</TableHead>
                <TableHead>Link</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {outbox.data.messages.map((message) => (
                <TableRow key={message.id}>
                  <TableCell>{message.to}</TableCell>
                  <TableCell className="whitespace-normal">{message.subject}</TableCell>
                  <TableCell>{new Date(message.created_at).toLocaleString()}</TableCell>
                  <TableCell className="max-w-64 truncate">
                    {message.link ? (
                      <a href={message.link} className="text-primary underline-offset-4 hover:underline" title={message.link}>
                        {message.link}
                      </a>
                    ) : (
                      '—'
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
