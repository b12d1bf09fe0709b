import { MESSAGES } from '@console/domain';
import { Moon, Sun } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useTheme } from '@/lib/theme';

/** Reads Dark mode while the theme is light, otherwise Light mode. */
export function ThemeToggle() {
  const { theme, setTheme } = useTheme();
  const toDark = theme === 'light';
  return (
    <Button variant="ghost" size="sm" onClick={() => setTheme(toDark ? 'dark' : 'light')}>
      {toDark ? <Moon aria-hidden /> : <Sun aria-hidden />}
      <span>{toDark ? MESSAGES.shell.darkMode : MESSAGES.shell.lightMode}</span>
    </Button>
  );
}
