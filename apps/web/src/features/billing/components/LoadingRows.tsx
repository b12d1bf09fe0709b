import { PAGING } from '@console/domain';
import { Skeleton } from '@/components/ui/skeleton';

/** Skeleton rows while a billing, capacity or settings query loads. */
export function LoadingRows({ rows = PAGING.skeletonRows, className = 'h-10' }: { rows?: number; className?: string }) {
  return (
    <div role="status" className="space-y-3">
      <span className="sr-only">Loading</span>
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className={`${className} w-full`} />
      ))}
    </div>
  );
}
