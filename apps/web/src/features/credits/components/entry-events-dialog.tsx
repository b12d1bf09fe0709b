import type { LedgerEntry, UsageEventRow, UsageEventsExportQuery } from '@console/domain';
import { useInfiniteQuery } from '@tanstack/react-query';
import { ListTree } from 'lucide-react';
import { useState } from 'react';
import { usageEventQueries } from '@/api/usage-events';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { formatCredits, formatDecimal } from '@/lib/credit-format';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';

const p = MESSAGES.creditPages;

const useEntryEventsQuery = (filters: UsageEventsExportQuery) => useInfiniteQuery(usageEventQueries.list(filters));

/** A consumption entry opens to the usage events it charged, a page at a time. */
export function EntryEventsButton({ entry }: { entry: LedgerEntry }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="link" size="sm" className="h-auto p-0" aria-label={`${p.entryEvents}: ${entry.description}`}>
          <ListTree aria-hidden />
          {p.entryEvents}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[85vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{p.entryEventsTitle}</DialogTitle>
          <DialogDescription>{p.entryEventsDescription(entry.description)}</DialogDescription>
        </DialogHeader>
        {open && <EntryEvents entry={entry} />}
      </DialogContent>
    </Dialog>
  );
}

/** The entry's events, narrowed by the day they occurred (an entry holds one agent, so no agent filter). */
function EntryEvents({ entry }: { entry: LedgerEntry }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const events = useEntryEventsQuery({
    organization_id: entry.organization_id,
    ledger_entry_id: entry.id,
    ...(from && { from }),
    ...(to && { to }),
  });
  const rows = events.data?.pages.flatMap((page) => page.events) ?? [];
  return (
    <div className="space-y-3">
      <div className="grid grid-cols-2 gap-3">
        <div className="space-y-1">
          <Label htmlFor="entry-events-from">{p.entryEventsFrom}</Label>
          <Input id="entry-events-from" type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className="space-y-1">
          <Label htmlFor="entry-events-to">{p.entryEventsTo}</Label>
          <Input id="entry-events-to" type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
        </div>
      </div>
      <EventRows events={events} rows={rows} />
    </div>
  );
}

function EventRows({ events, rows }: { events: ReturnType<typeof useEntryEventsQuery>; rows: UsageEventRow[] }) {
  if (events.isPending) return <LoadingRows />;
  if (events.isError && rows.length === 0) return <QueryError error={events.error} title={p.entryEventsFailed} onRetry={events.refetch} />;
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">{p.entryEventsEmpty}</p>;
  return (
    <div className="space-y-3">
      <ul className="divide-y rounded-md border" aria-label={p.entryEventsTitle}>
        {rows.map((event) => (
          <li key={`${event.organization_id}:${event.id}`} className="grid gap-1 p-3 text-sm sm:grid-cols-[1fr_auto]">
            <div className="min-w-0">
              <p className="font-medium break-all">{event.id}</p>
              <p className="text-muted-foreground">
                {/* No price from above the organization's seller (the margins rule): the units and the charge only. */}
                {event.agent} · {p.entryEventUnits(formatDecimal(event.units), event.unit, event.price)} · occurred{' '}
                {formatDateTime(event.occurred_at)}
              </p>
              {Object.keys(event.metadata).length > 0 && (
                <p className="text-xs break-all text-muted-foreground">{JSON.stringify(event.metadata)}</p>
              )}
            </div>
            <p className="font-medium tabular-nums sm:text-right">{formatCredits(event.credits_charged)}</p>
          </li>
        ))}
      </ul>
      {events.hasNextPage && (
        <div className="flex justify-center">
          <Button variant="outline" onClick={() => void events.fetchNextPage()} disabled={events.isFetchingNextPage}>
            {events.isFetchingNextPage ? 'Loading…' : p.loadMore}
          </Button>
        </div>
      )}
    </div>
  );
}
