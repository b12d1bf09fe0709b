import { Moon, Sun } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useTheme } from '@/lib/theme';
import { MESSAGES } from '@/lib/wording';

/**
 * Reads Dark mode while the page is light, otherwise Light mode, and switches to the other.
 * It goes by the theme in effect, so under the system theme it offers the opposite of what
 * the device shows; following the system again is chosen under Settings, Appearance.
 */
export function ThemeToggle() {
  const { resolvedTheme, setTheme } = useTheme();
  const toDark = resolvedTheme === 'light';
  return (
    <Button variant="ghost" size="sm" onClick={() => setTheme(toDark ? 'dark' : 'light')}>
      {toDark ? <Moon aria-hidden /> : <Sun aria-hidden />}
      {/* Its words on screen only from 1024 px: below, the header keeps its room for the page's title. */}
      <span className="sr-only lg:not-sr-only">{toDark ? MESSAGES.shell.darkMode : MESSAGES.shell.lightMode}</span>
    </Button>
  );
}
