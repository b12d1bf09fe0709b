import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { CardTitle } from '@/components/ui/card';

/** A card's title after its muted icon, the way the console's summary cards open. */
export function IconCardTitle({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <CardTitle className="flex items-center gap-2 text-base">
      <Icon className="size-4 text-muted-foreground" aria-hidden />
      {children}
    </CardTitle>
  );
}
