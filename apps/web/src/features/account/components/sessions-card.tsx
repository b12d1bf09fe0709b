import type { AccountSession } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { MonitorSmartphone } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/confirm-button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { accountQueries, useEndOtherSessions, useEndSession } from '@/api/account';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';
import { SecurityCard } from './security-card';

const w = MESSAGES.security.sessions;

/** One session: device, address, when it started and was last active; End unless it is this one. */
function SessionRow({ session }: { session: AccountSession }) {
  const end = useEndSession();
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium wrap-anywhere">{session.device}</span>
          {session.current && <Badge variant="secondary">{w.thisSession}</Badge>}
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-sm text-muted-foreground">
          <dt>{w.address}</dt>
          <dd className="wrap-anywhere">{session.ip ?? w.unknownAddress}</dd>
          <dt>{w.started}</dt>
          <dd>{formatDateTime(session.started_at)}</dd>
          <dt>{w.lastActive}</dt>
          <dd>{formatDateTime(session.last_active_at)}</dd>
        </dl>
      </div>
      {!session.current && (
        <ConfirmButton
          label={w.end}
          subject={session.device}
          pending={end.isPending}
          title={w.endTitle}
          description={w.endConfirm(session.device)}
          onConfirm={() => announceEnded(end.mutateAsync(session.id))}
        />
      )}
    </li>
  );
}

/** Says how many sessions ended, or why none did; settles even when the row it came from is gone. */
function announceEnded(outcome: Promise<{ ended: number }>): void {
  outcome.then(
    ({ ended }) => toast.success(w.ended(ended)),
    (error: unknown) => toast.error(w.endFailed, { description: error instanceof Error ? error.message : undefined }),
  );
}

/** The person's sessions, this one first, and ending the others. */
export function SessionsCard() {
  const sessions = useQuery(accountQueries.sessions());
  const endOthers = useEndOtherSessions();
  const [confirming, setConfirming] = useState(false);
  const items = sessions.data ? [...sessions.data].sort((a, b) => Number(b.current) - Number(a.current)) : [];
  const others = items.filter((session) => !session.current).length;

  return (
    <SecurityCard icon={MonitorSmartphone} title={w.title} description={w.description} contentClassName="space-y-2">
      {sessions.isPending ? (
        <LoadingRows rows={['h-14 w-full', 'h-14 w-full']} />
      ) : sessions.isError ? (
        <QueryError error={sessions.error} title={MESSAGES.security.loadFailed} onRetry={sessions.refetch} />
      ) : (
        <>
          <ul aria-label={w.title} className="divide-y">
            {items.map((session) => (
              <SessionRow key={session.id} session={session} />
            ))}
          </ul>
          {others === 0 ? (
            <p className="text-sm text-muted-foreground">{w.noOthers}</p>
          ) : (
            <ConfirmDialog
              open={confirming}
              onOpenChange={setConfirming}
              title={w.endOthers}
              description={w.endOthersConfirm}
              confirmLabel={w.endOthers}
              destructive
              trigger={
                <Button variant="outline" disabled={endOthers.isPending}>
                  {w.endOthers}
                </Button>
              }
              onConfirm={() => announceEnded(endOthers.mutateAsync())}
            />
          )}
        </>
      )}
    </SecurityCard>
  );
}
