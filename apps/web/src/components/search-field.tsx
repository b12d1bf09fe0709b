import { Search } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

interface SearchFieldProps extends Omit<ComponentProps<'input'>, 'id' | 'type' | 'className'> {
  id: string;
  label: string;
  /** The label is read by screen readers only, where the placeholder and the icon say enough on screen. */
  hideLabel?: boolean;
  /** Classes for the wrapper, such as its width in a row of filters. */
  className?: string;
}

/** A labelled search input with a magnifier icon inside it. */
export function SearchField({ id, label, hideLabel = false, className, ...props }: SearchFieldProps) {
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id} className={cn(hideLabel && 'sr-only')}>
        {label}
      </Label>
      <div className="relative">
        <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <Input id={id} type="search" className="pl-8" {...props} />
      </div>
    </div>
  );
}
