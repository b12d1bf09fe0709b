import type { ReactNode } from 'react';
import { CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/** A dashboard card's title and description, with its controls at the right (below them when the card is narrow). */
export function ActionCardHeader({ title, description, children }: { title: string; description: ReactNode; children: ReactNode }) {
  return (
    <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
      <div className="grid min-w-0 gap-1.5">
        <CardTitle className="text-base">{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </div>
      {children}
    </CardHeader>
  );
}
