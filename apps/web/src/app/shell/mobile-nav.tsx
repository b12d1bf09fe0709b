import { Menu } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '@/components/ui/sheet';
import { NavList } from './nav-list';
import { MESSAGES } from '@/lib/wording';

/** Below 768 px the navigation lives in a left slide-in sheet. */
export function MobileNav() {
  const [open, setOpen] = useState(false);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" aria-label="Open menu">
          <Menu aria-hidden />
        </Button>
      </SheetTrigger>
      <SheetContent>
        <div className="grid gap-1.5 pr-8">
          <SheetTitle>{MESSAGES.shell.menuTitle}</SheetTitle>
          <SheetDescription>{MESSAGES.shell.menuDescription}</SheetDescription>
        </div>
        <NavList onNavigate={() => setOpen(false)} />
      </SheetContent>
    </Sheet>
  );
}
