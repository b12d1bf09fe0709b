import { Monitor, Moon, Sun } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { THEMES, useTheme, type Theme } from '@/lib/theme';
import { cn } from '@/lib/utils';
import { MESSAGES } from '../wording';

const { shell } = MESSAGES;
const ICONS: Record<Theme, typeof Sun> = { light: Sun, dark: Moon, system: Monitor };

/** Light, dark or system: the header's button only flips between the first two. */
export function AppearanceCard() {
  const { theme, setTheme } = useTheme();
  return (
    <Card className="gap-3">
      <CardHeader>
        <CardTitle className="text-base">{shell.appearanceTitle}</CardTitle>
        <CardDescription>{shell.appearanceBody}</CardDescription>
      </CardHeader>
      <CardContent>
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">{shell.appearanceTitle}</legend>
          {THEMES.map((option) => {
            const Icon = ICONS[option];
            return (
              <label
                key={option}
                className={cn(
                  'flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                  theme === option && 'border-primary bg-accent font-medium',
                )}
              >
                <input
                  type="radio"
                  name="theme"
                  value={option}
                  checked={theme === option}
                  onChange={() => setTheme(option)}
                  className="accent-primary"
                />
                <Icon className="size-4" aria-hidden />
                {shell.themeLabels[option]}
              </label>
            );
          })}
        </fieldset>
      </CardContent>
    </Card>
  );
}
