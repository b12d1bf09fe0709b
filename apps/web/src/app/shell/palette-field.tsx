import { Search } from 'lucide-react';
import type { ComponentProps } from 'react';
import { MESSAGES } from '@/lib/wording';

const t = MESSAGES.shell.palette;

/**
 * The palette's search field. The shell shows it at once while the results' chunk loads on the
 * first opening, and the results show it again once loaded, with what was typed meanwhile: the
 * keys pressed right after ⌘K land in a field, not in the dialog.
 */
export function PaletteField(props: ComponentProps<'input'>) {
  return (
    <div className="flex items-center gap-2 border-b px-3">
      <Search className="size-4 shrink-0 text-muted-foreground" aria-hidden />
      <input
        // Mounted with the dialog, or in place of the loading field: the focus follows it in.
        autoFocus
        aria-label={t.inputLabel}
        autoComplete="off"
        spellCheck={false}
        placeholder={t.placeholder}
        className="h-12 w-full min-w-0 bg-transparent text-base outline-none placeholder:text-muted-foreground md:text-sm"
        {...props}
      />
    </div>
  );
}
