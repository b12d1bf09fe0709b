import { Table2, type LucideIcon } from 'lucide-react';
import { ChoiceButtons } from '@/components/choice-buttons';

/** One view of a "View" switch: its value, icon and name. */
interface ViewOption<T extends string> {
  value: T;
  icon: LucideIcon;
  name: string;
}

/**
 * The "View" switch of a list page: Table first, then the page's other view (a list, a
 * hierarchy), each an icon and a name, the current one pressed.
 */
export function ViewChoice<T extends string>({
  other,
  value,
  onChange,
  className,
}: {
  /** The page's other view; `T` is both views, 'table' and this one. */
  other: ViewOption<NoInfer<Exclude<T, 'table'>>>;
  value: T;
  onChange(value: NoInfer<T>): void;
  className?: string;
}) {
  const views: ViewOption<T>[] = [{ value: 'table' as T, icon: Table2, name: 'Table' }, other];
  return (
    <ChoiceButtons
      label="View"
      className={className}
      choices={views.map(({ value: view, icon: Icon, name }) => ({
        value: view,
        label: (
          <>
            <Icon aria-hidden />
            {name}
          </>
        ),
      }))}
      value={value}
      onChange={onChange}
    />
  );
}
