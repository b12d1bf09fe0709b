import { PAGING } from '@console/domain';
import { Skeleton } from '@/components/ui/skeleton';

interface LoadingRowsProps {
  /** How many rows of `className`, or one class list per row. */
  rows?: number | readonly string[];
  /** The height of each row when `rows` is a number. */
  className?: string;
}

/** Skeleton rows under a "Loading" status while a query loads. */
export function LoadingRows({ rows = PAGING.skeletonRows, className = 'h-10' }: LoadingRowsProps) {
  const shapes = typeof rows === 'number' ? Array.from({ length: rows }, () => `${className} w-full`) : rows;
  return (
    <div role="status" className="space-y-3">
      <span className="sr-only">Loading</span>
      {shapes.map((shape, index) => (
        <Skeleton key={index} className={shape} />
      ))}
    </div>
  );
}
