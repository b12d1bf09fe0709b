import type { ActivityEvent } from '@console/domain';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/dates';

interface RowsProps {
  events: ActivityEvent[];
  /** Narrows the log to what this person did. */
  onActor(actor: { id: string; name: string }): void;
}

/** Who acted: a person (their name, a button that filters by them, and the e-mail), a key, or nobody known. */
function Who({ event, onActor }: { event: ActivityEvent; onActor: RowsProps['onActor'] }) {
  const { actor } = event;
  if (actor.kind === 'user' && actor.id) {
    return (
      <div className="grid">
        <Button
          variant="link"
          className="h-auto justify-start p-0"
          title="Show only what this person did"
          onClick={() => onActor({ id: actor.id!, name: actor.name ?? actor.email ?? 'Selected person' })}
        >
          {actor.name}
        </Button>
        <span className="text-xs text-muted-foreground">{actor.email}</span>
      </div>
    );
  }
  if (actor.kind === 'api_key') return <span>Key {actor.name}</span>;
  if (actor.kind === 'scim_token') return <span>SCIM token {actor.name}</span>;
  return <span className="text-muted-foreground">Unknown</span>;
}

/** At 768 px and wider: When, Who, What, Organization, Address. */
export function ActivityTable({ events, onActor }: RowsProps) {
  return (
    <Table aria-label="Activity">
      <TableHeader>
        <TableRow>
          <TableHead>When</TableHead>
          <TableHead>Who</TableHead>
          <TableHead>What</TableHead>
          <TableHead>Organization</TableHead>
          <TableHead>Address</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {events.map((event) => (
          <TableRow key={event.id}>
            <TableCell className="whitespace-nowrap">{formatDateTime(event.created_at)}</TableCell>
            <TableCell>
              <Who event={event} onActor={onActor} />
            </TableCell>
            <TableCell className="max-w-96 whitespace-normal">{event.sentence}</TableCell>
            <TableCell>{event.organization?.name ?? '—'}</TableCell>
            <TableCell className="font-mono text-xs">{event.ip ?? '—'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Below 768 px: one card per event. */
export function ActivityCards({ events, onActor }: RowsProps) {
  return (
    <ul className="divide-y rounded-md border" aria-label="Activity">
      {events.map((event) => (
        <li key={event.id} className="space-y-1 p-4">
          <p className="text-sm font-medium">{event.sentence}</p>
          <div className="text-sm">
            <Who event={event} onActor={onActor} />
          </div>
          <p className="text-xs text-muted-foreground">
            {formatDateTime(event.created_at)}
            {event.organization && ` · ${event.organization.name}`}
            {event.ip && ` · ${event.ip}`}
          </p>
        </li>
      ))}
    </ul>
  );
}
