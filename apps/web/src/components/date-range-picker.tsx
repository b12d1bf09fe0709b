import { UI } from '@console/domain';
import { formatDate } from '@/lib/dates';
import { CalendarIcon } from 'lucide-react';
import type { DateRange } from 'react-day-picker';
import { Button } from '@/components/ui/button';
import { Calendar } from '@/components/ui/calendar';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { useMediaQuery } from '@/lib/use-media-query';
import { cn } from '@/lib/utils';

function rangeText(range: DateRange | undefined): string | null {
  if (!range?.from) return null;
  const first = formatDate(range.from);
  if (!range.to || range.to.getTime() === range.from.getTime()) return first;
  return `${first} – ${formatDate(range.to)}`;
}

interface DateRangePickerProps {
  id: string;
  value: DateRange | undefined;
  onChange(range: DateRange | undefined): void;
  className?: string;
}

/**
 * A date range picked on a calendar in a popover: two months side by side on wide screens,
 * one on narrow ones. The popover opens below the button and moves to stay on screen.
 */
export function DateRangePicker({ id, value, onChange, className }: DateRangePickerProps) {
  const wide = useMediaQuery(`(min-width: ${UI.narrowBreakpointPx}px)`);
  const shown = rangeText(value);
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button
          id={id}
          variant="outline"
          className={cn('w-full justify-start text-left font-normal sm:w-72', !shown && 'text-muted-foreground', className)}
        >
          <CalendarIcon aria-hidden />
          <span className="truncate">{shown ?? 'Pick a date range'}</span>
        </Button>
      </PopoverTrigger>
      <PopoverContent
        className="max-h-(--radix-popover-content-available-height) w-auto max-w-[calc(100vw-1rem)] overflow-y-auto p-3"
        align="start"
        side="bottom"
        collisionPadding={8}
        data-testid="date-range-popover"
      >
        <Calendar mode="range" numberOfMonths={wide ? 2 : 1} defaultMonth={value?.from} selected={value} onSelect={onChange} />
        {value?.from && (
          <div className="mt-2 flex justify-end">
            <Button variant="ghost" size="sm" onClick={() => onChange(undefined)}>
              Clear dates
            </Button>
          </div>
        )}
      </PopoverContent>
    </Popover>
  );
}
