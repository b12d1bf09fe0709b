import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { TableHead } from '@/components/ui/table';
import { cn } from '@/lib/utils';

export type SortDirection = 'asc' | 'desc';

export interface SortState<K extends string> {
  sort: K;
  order: SortDirection;
}

interface SortableHeadProps<K extends string> {
  label: string;
  sortKey: K;
  state: SortState<K>;
  /** Sorts by this column: the current one turns around, another starts in its own first order. */
  onSort(sortKey: K): void;
  className?: string;
}

/**
 * A column header that sorts the list by its column. aria-sort tells assistive technology
 * which column orders the rows and which way; the button says what a press does.
 */
export function SortableHead<K extends string>({ label, sortKey, state, onSort, className }: SortableHeadProps<K>) {
  const current = state.sort === sortKey;
  const Icon = !current ? ArrowUpDown : state.order === 'asc' ? ArrowUp : ArrowDown;
  return (
    <TableHead aria-sort={current ? (state.order === 'asc' ? 'ascending' : 'descending') : 'none'} className={className}>
      <button
        type="button"
        onClick={() => onSort(sortKey)}
        className={cn(
          'inline-flex items-center gap-1 rounded-sm font-medium hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
          current && 'text-foreground',
        )}
      >
        {label}
        <Icon className="size-3.5" aria-hidden />
      </button>
    </TableHead>
  );
}

interface SortSelectProps<K extends string> {
  id: string;
  /** Each sort key with the name of its column. */
  options: readonly { key: K; label: string }[];
  state: SortState<K>;
  onChange(state: SortState<K>): void;
  className?: string;
}

const DIRECTION_LABELS: Record<SortDirection, string> = { asc: 'ascending', desc: 'descending' };

/** The sort of a list shown as cards (no column headers to press): one select of column and direction. */
export function SortSelect<K extends string>({ id, options, state, onChange, className }: SortSelectProps<K>) {
  return (
    <div className={cn('grid grid-cols-[3rem_minmax(0,1fr)] items-center gap-2', className)}>
      <Label htmlFor={id} className="font-normal text-muted-foreground">
        Sort
      </Label>
      <NativeSelect
        id={id}
        className="w-full"
        value={`${state.sort}:${state.order}`}
        onChange={(event) => {
          const [sort, order] = event.target.value.split(':') as [K, SortDirection];
          onChange({ sort, order });
        }}
      >
        {options.flatMap(({ key, label }) =>
          (['asc', 'desc'] as const).map((order) => (
            <option key={`${key}:${order}`} value={`${key}:${order}`}>
              {label}, {DIRECTION_LABELS[order]}
            </option>
          )),
        )}
      </NativeSelect>
    </div>
  );
}
