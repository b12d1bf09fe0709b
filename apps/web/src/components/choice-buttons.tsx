import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';

export interface Choice<T extends string> {
  value: T;
  label: ReactNode;
}

/**
 * One of a few choices as a group of small buttons, the chosen one pressed (a view, a period,
 * whose figures): `aria-pressed` tells a screen reader which, the variant shows it.
 */
export function ChoiceButtons<T extends string>({
  label,
  choices,
  value,
  onChange,
  className,
  wrap = false,
}: {
  /** The group's accessible name. */
  label: string;
  choices: readonly Choice<NoInfer<T>>[];
  value: T;
  onChange(value: NoInfer<T>): void;
  /** Classes for the group, such as its layout in a toolbar. */
  className?: string;
  /** Labels may wrap (one holds a name of any length): a button is never wider than its group. */
  wrap?: boolean;
}) {
  return (
    <div role="group" aria-label={label} className={className}>
      {choices.map((choice) => (
        <Button
          key={choice.value}
          size="sm"
          variant={value === choice.value ? 'secondary' : 'ghost'}
          aria-pressed={value === choice.value}
          className={wrap ? 'h-auto min-h-8 max-w-full text-left whitespace-normal wrap-anywhere' : undefined}
          onClick={() => onChange(choice.value)}
        >
          {choice.label}
        </Button>
      ))}
    </div>
  );
}
