import type { ReactNode } from 'react';
import { NativeSelect } from '@/components/ui/native-select';

/** The value of the option that turns the filter off; no filter value is spelled so. */
const ALL = 'all';

/** A list filter's select: first "All …" (the filter off, `null`), then one option a value. */
export function FilterSelect<Value extends string>({
  id,
  className,
  value,
  onChange,
  all,
  options,
  labelOf,
  children,
}: {
  id: string;
  className?: string;
  value: Value | null;
  onChange(value: Value | null): void;
  /** The label of the option that turns the filter off, such as "All statuses". */
  all: string;
  options: readonly Value[];
  labelOf(value: Value): string;
  /** Options shown between "All …" and the list, such as a chosen value the list no longer holds. */
  children?: ReactNode;
}) {
  return (
    <NativeSelect
      id={id}
      className={className}
      value={value ?? ALL}
      // Only the options below can be chosen, so any other value is one of `options`.
      onChange={(event) => onChange(event.target.value === ALL ? null : (event.target.value as Value))}
    >
      <option value={ALL}>{all}</option>
      {children}
      {options.map((option) => (
        <option key={option} value={option}>
          {labelOf(option)}
        </option>
      ))}
    </NativeSelect>
  );
}
