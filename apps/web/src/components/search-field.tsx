import { Search } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

interface SearchFieldProps extends Omit<ComponentProps<'input'>, 'id' | 'type' | 'className' | 'value' | 'onChange'> {
  id: string;
  /** "Search" unless the page has more than one search. */
  label?: string;
  value: string;
  onValueChange(text: string): void;
  /** The label is read by screen readers only, where the placeholder and the icon say enough on screen. */
  hideLabel?: boolean;
  /** Classes for the wrapper, such as its width in a row of filters. */
  className?: string;
}

/** A labelled search input with a magnifier icon inside it. */
export function SearchField({ id, label = 'Search', hideLabel = false, className, value, onValueChange, ...props }: SearchFieldProps) {
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id} className={cn(hideLabel && 'sr-only')}>
        {label}
      </Label>
      <div className="relative">
        <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <Input id={id} type="search" className="pl-8" value={value} onChange={(event) => onValueChange(event.target.value)} {...props} />
      </div>
    </div>
  );
}
