import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

export interface StackedField {
  label: string;
  value: ReactNode;
}

interface StackedCardProps {
  /** The row's name, shown first; a long name wraps instead of widening the page. */
  title: ReactNode;
  /** Every other column of the table's row, each with its column's name. */
  fields: StackedField[];
  /** The row's actions, named as in the table. */
  actions?: ReactNode;
  className?: string;
}

/**
 * One row of a table shown as a card on narrow screens: the title, then each column as a
 * label and its value, then the actions, so no value hides behind a horizontal scroll.
 */
export function StackedCard({ title, fields, actions, className }: StackedCardProps) {
  return (
    <li className={cn('min-w-0 space-y-3 rounded-md border p-4', className)}>
      <div className="min-w-0 font-medium wrap-anywhere">{title}</div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
        {fields.map((field) => (
          <div key={field.label} className="contents">
            <dt className="text-muted-foreground">{field.label}</dt>
            <dd className="min-w-0 wrap-anywhere">{field.value}</dd>
          </div>
        ))}
      </dl>
      {actions && <div className="flex flex-wrap justify-end gap-1">{actions}</div>}
    </li>
  );
}
