import { ORG_TYPE_LABELS } from '@console/domain';
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { useQuery } from '@tanstack/react-query';
import { billingQueries } from '@/api/billing';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { MESSAGES } from '../wording';

const m = MESSAGES.billingPages;

/** Lists the active direct children; choosing one opens the allocation page with that child selected. */
export function AllocateCreditsDialog({ organizationId, base }: { organizationId: string; base: string }) {
  const capacity = useQuery(billingQueries.capacity(organizationId));
  const active = capacity.data?.children.filter((child) => child.status === 'active') ?? [];

  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button size="sm">{m.allocateCredits}</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{m.allocateCredits}</DialogTitle>
          <DialogDescription>{m.chooseChild}</DialogDescription>
        </DialogHeader>
        {capacity.isPending ? (
          <LoadingRows rows={3} />
        ) : capacity.isError ? (
          <QueryError
            error={capacity.error}
            title={m.loadCapacityFailed}
            notFound={MESSAGES.organizations.notFound}
            onRetry={capacity.refetch}
          />
        ) : active.length === 0 ? (
          <p className="text-sm text-muted-foreground">{MESSAGES.creditPages.noActiveChildren}</p>
        ) : (
          <ul className="max-h-80 divide-y overflow-y-auto rounded-md border">
            {active.map((child) => (
              <li key={child.id}>
                <Link
                  to={`${base}/${child.id}/allocate-credits`}
                  className="flex items-center justify-between gap-3 px-3 py-2 text-sm hover:bg-accent focus-visible:bg-accent focus-visible:outline-none"
                >
                  <span className="min-w-0">
                    <span className="block font-medium wrap-anywhere" title={child.name}>
                      {child.name}
                    </span>
                    <span className="text-xs text-muted-foreground">{ORG_TYPE_LABELS[child.org_type]}</span>
                  </span>
                  <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
