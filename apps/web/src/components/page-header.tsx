import type { ReactNode } from 'react';
import { Skeleton } from '@/components/ui/skeleton';

const TITLE = {
  large: 'text-3xl font-bold tracking-tight',
  medium: 'text-2xl font-semibold tracking-tight',
};

/** A page's heading: its title, what it shows, and beside them on a wide screen its actions (`children`). */
export function PageHeader({
  title,
  subtitle,
  loading = false,
  titleSize = 'large',
  align = 'start',
  children,
}: {
  title: ReactNode;
  subtitle: ReactNode;
  /** While what the subtitle names is loading, a placeholder in its place. */
  loading?: boolean;
  titleSize?: keyof typeof TITLE;
  /** How the actions line up with the text on a wide screen: with its top or its bottom. */
  align?: 'start' | 'end';
  children?: ReactNode;
}) {
  return (
    <header
      className={
        align === 'end'
          ? 'flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between'
          : 'flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between'
      }
    >
      <div className="min-w-0 space-y-1">
        <h1 className={TITLE[titleSize]}>{title}</h1>
        {loading ? <Skeleton className="h-5 w-64" /> : <p className="break-words text-muted-foreground">{subtitle}</p>}
      </div>
      {children}
    </header>
  );
}
