import { Copy, TriangleAlert } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { MESSAGES } from '@/lib/wording';

const k = MESSAGES.apiKeyPages;

/** The new key once: a warning that it is never shown again, the key read-only, and Copy. */
export function SecretView({ secret, title = k.secretTitle, onDone }: { secret: string; title?: string; onDone(): void }) {
  const inputId = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      toast.success(k.copied);
    } catch {
      toast.error(k.copyFailed);
    }
  }
  return (
    <div className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription className="sr-only">{k.secretWarning}</DialogDescription>
      </DialogHeader>
      <Alert className="border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
        <TriangleAlert aria-hidden />
        <AlertDescription className="text-inherit">{k.secretWarning}</AlertDescription>
      </Alert>
      <div className="grid gap-2">
        <Label htmlFor={inputId}>{k.secretLabel}</Label>
        <div className="flex gap-2">
          <Input
            id={inputId}
            value={secret}
            readOnly
            spellCheck={false}
            autoComplete="off"
            className="font-mono text-xs"
            onFocus={(event) => event.currentTarget.select()}
          />
          <Button type="button" variant="outline" onClick={() => void copy()}>
            <Copy aria-hidden />
            {k.copy}
          </Button>
        </div>
      </div>
      <DialogFooter>
        <Button type="button" onClick={onDone}>
          {k.done}
        </Button>
      </DialogFooter>
    </div>
  );
}

/**
 * A dialog's content that becomes the new key once there is one (`secret`): until Done, a
 * click outside does not close it, so the key is not lost by accident. Before, it shows `children`.
 */
export function SecretDialogContent({
  secret,
  title,
  onDone,
  children,
}: {
  secret: string | null;
  title?: string;
  onDone(): void;
  children: ReactNode;
}) {
  return (
    <DialogContent
      onInteractOutside={(event) => {
        if (secret) event.preventDefault();
      }}
    >
      {secret ? <SecretView secret={secret} title={title} onDone={onDone} /> : children}
    </DialogContent>
  );
}
