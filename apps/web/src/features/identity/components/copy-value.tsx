import { Copy } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { MESSAGES } from '../wording';

const w = MESSAGES.identityPages;

/** Copies text and says whether it worked (a refused clipboard leaves the text to select by hand). */
export async function copyToClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(w.copied);
  } catch {
    toast.error(MESSAGES.security.copyFailed);
  }
}

/**
 * A value to paste elsewhere (the redirect URI, a TXT record, a token): its label, the value
 * whole and selectable (long values wrap rather than widen the page), and Copy named for it.
 */
export function CopyValue({
  label,
  value,
  copyName = label,
  className,
}: {
  label: string;
  value: string;
  copyName?: string;
  className?: string;
}) {
  return (
    <div className={cn('grid min-w-0 gap-1', className)}>
      <span className="text-sm font-medium">{label}</span>
      <div className="flex min-w-0 items-start gap-2">
        <code className="min-w-0 flex-1 rounded-md border bg-muted/40 px-2 py-1.5 font-mono text-xs break-all select-all">{value}</code>
        <Button type="button" variant="outline" size="sm" aria-label={w.copyAria(copyName)} onClick={() => void copyToClipboard(value)}>
          <Copy aria-hidden />
          {w.copy}
        </Button>
      </div>
    </div>
  );
}
