import { NativeSelect } from '@/components/ui/native-select';
import { Label } from '@/components/ui/label';
import { monthLabel, recentMonths } from '../format';

/** How many months back a picker reaches. */
const MONTHS_SHOWN = 24;

/** A month of the last two years (UTC), newest first, by name; a chosen month outside them stays listed. */
export function MonthSelect({
  id,
  label,
  value,
  onChange,
  className,
}: {
  id: string;
  label: string;
  value: string;
  onChange(month: string): void;
  className?: string;
}) {
  const months = recentMonths(MONTHS_SHOWN);
  if (!months.includes(value)) months.push(value);
  return (
    <div className={className ?? 'grid gap-2'}>
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {months.map((month) => (
          <option key={month} value={month}>
            {monthLabel(month)}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
