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
}: {
  /** The group's accessible name. */
  label: string;
  choices: readonly Choice<NoInfer<T>>[];
  value: T;
  onChange(value: NoInfer<T>): void;
  /** Classes for the group, such as its layout in a toolbar. */
  className?: string;
}) {
  return (
    <div role="group" aria-label={label} className={className}>
      {choices.map((choice) => (
        <Button
          key={choice.value}
          size="sm"
          variant={value === choice.value ? 'secondary' : 'ghost'}
          aria-pressed={value === choice.value}
          onClick={() => onChange(choice.value)}
        >
          {choice.label}
        </Button>
      ))}
    </div>
  );
}
