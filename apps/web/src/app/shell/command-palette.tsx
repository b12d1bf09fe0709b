import { Search } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { MESSAGES } from '@/lib/wording';
import { PaletteField } from './palette-field';

// The field and its searches load on the first opening, keeping the shell's own chunk light.
const PaletteBody = lazy(() => import('./command-palette-body'));

const t = MESSAGES.shell.palette;

interface PaletteState {
  open: boolean;
  /** What the search field holds. */
  typed: string;
}

/** Each opening starts with an empty field. */
const CLOSED: PaletteState = { open: false, typed: '' };
const OPENED: PaletteState = { open: true, typed: '' };

/** Whether the shortcut that opens the palette was pressed: ⌘K on a Mac, Ctrl+K elsewhere (either is accepted). */
function isPaletteShortcut(event: KeyboardEvent): boolean {
  return (event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';
}

/** The shortcut as the device's keyboard names it. */
function shortcutHint(): string {
  return /Mac|iPhone|iPad/.test(navigator.userAgent) ? '⌘K' : 'Ctrl K';
}

/**
 * The header's search button and the ⌘K / Ctrl+K palette it opens: a dialog with a combobox
 * that jumps to a page, an organization of the subtree, a person or a recent ledger entry.
 */
export function CommandPalette() {
  // What is typed lives here, not in the lazy results: the field shows at once on the first
  // opening, before the results' chunk has loaded, and keeps the keys pressed meanwhile.
  const [palette, setPalette] = useState(CLOSED);
  const { open, typed } = palette;
  const setOpen = (shown: boolean) => setPalette(shown ? OPENED : CLOSED);
  const onType = (text: string) => setPalette((current) => ({ ...current, typed: text }));

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isPaletteShortcut(event)) return;
      event.preventDefault();
      setPalette((current) => (current.open ? CLOSED : OPENED));
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <>
      <Button variant="outline" size="sm" aria-haspopup="dialog" aria-keyshortcuts="Control+K Meta+K" onClick={() => setOpen(true)}>
        <Search aria-hidden />
        <span className="sr-only sm:not-sr-only">{t.button}</span>
        <kbd aria-hidden className="hidden rounded border bg-muted px-1 font-sans text-[0.7rem] text-muted-foreground md:inline">
          {shortcutHint()}
        </kbd>
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="top-[10vh] max-w-xl translate-y-0 gap-0 overflow-hidden p-0">
          <DialogTitle className="sr-only">{t.title}</DialogTitle>
          <DialogDescription className="sr-only">{t.description}</DialogDescription>
          {open && (
            <Suspense
              fallback={
                <>
                  <PaletteField value={typed} onChange={(event) => onType(event.target.value)} />
                  <p className="px-3 py-4 text-sm text-muted-foreground">{t.searching}</p>
                </>
              }
            >
              <PaletteBody typed={typed} onType={onType} onNavigate={() => setOpen(false)} />
            </Suspense>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
