import { PAGING } from '@console/domain';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';

interface PaginationControlsProps {
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
  onPageChange(page: number): void;
  onPageSizeChange(pageSize: number): void;
}

/** Previous/Next, the rows shown and a page size of PAGING.orgPageSizes (10, 25, 50 or 100). */
export function PaginationControls({ page, pageSize, total, totalPages, onPageChange, onPageSizeChange }: PaginationControlsProps) {
  const sizeId = useId();
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, total);
  return (
    <div className="flex flex-col gap-3 text-sm sm:flex-row sm:items-center sm:justify-between">
      <p className="text-muted-foreground" aria-live="polite">
        Showing {from} to {to} of {total} organizations
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex items-center gap-2">
          <Label htmlFor={sizeId} className="font-normal text-muted-foreground">
            Rows per page
          </Label>
          <NativeSelect id={sizeId} className="w-20" value={pageSize} onChange={(event) => onPageSizeChange(Number(event.target.value))}>
            {PAGING.orgPageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </NativeSelect>
        </div>
        <span className="text-muted-foreground">
          Page {Math.min(page, Math.max(totalPages, 1))} of {Math.max(totalPages, 1)}
        </span>
        <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPageChange(Math.max(1, Math.min(page - 1, totalPages)))}>
          Previous
        </Button>
        <Button variant="outline" size="sm" disabled={page >= totalPages} onClick={() => onPageChange(page + 1)}>
          Next
        </Button>
      </div>
    </div>
  );
}
