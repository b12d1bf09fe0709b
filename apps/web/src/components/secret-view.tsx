import { Copy, TriangleAlert } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/** What the view says about the secret it shows (an API key, a webhook signing secret). */
export interface SecretWording {
  secretTitle: string;
  secretWarning: string;
  secretLabel: string;
  copy: string;
  copied: string;
  copyFailed: string;
  done: string;
}

/** A new secret once: a warning that it is never shown again, the secret read-only, and Copy. */
export function SecretView({
  secret,
  wording,
  title = wording.secretTitle,
  onDone,
}: {
  secret: string;
  wording: SecretWording;
  title?: string;
  onDone(): void;
}) {
  const inputId = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      toast.success(wording.copied);
    } catch {
      toast.error(wording.copyFailed);
    }
  }
  return (
    <div className="grid min-w-0 gap-4">
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription className="sr-only">{wording.secretWarning}</DialogDescription>
      </DialogHeader>
      <Alert className="border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
        <TriangleAlert aria-hidden />
        <AlertDescription className="text-inherit">{wording.secretWarning}</AlertDescription>
      </Alert>
      <div className="grid gap-2">
        <Label htmlFor={inputId}>{wording.secretLabel}</Label>
        <div className="flex gap-2">
          <Input
            id={inputId}
            value={secret}
            readOnly
            spellCheck={false}
            autoComplete="off"
            className="min-w-0 font-mono text-xs"
            onFocus={(event) => event.currentTarget.select()}
          />
          <Button type="button" variant="outline" onClick={() => void copy()}>
            <Copy aria-hidden />
            {wording.copy}
          </Button>
        </div>
      </div>
      <DialogFooter>
        <Button type="button" onClick={onDone}>
          {wording.done}
        </Button>
      </DialogFooter>
    </div>
  );
}

/**
 * A dialog's content that becomes the new secret once there is one (`secret`): until Done, a
 * click outside does not close it, so the secret is not lost by accident. Before, it shows `children`.
 */
export function SecretDialogContent({
  secret,
  wording,
  title,
  onDone,
  className,
  children,
}: {
  secret: string | null;
  wording: SecretWording;
  title?: string;
  onDone(): void;
  /** Classes of the dialog's content, such as a wider or scrolling form. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <DialogContent
      className={className}
      onInteractOutside={(event) => {
        if (secret) event.preventDefault();
      }}
    >
      {secret ? <SecretView secret={secret} wording={wording} title={title} onDone={onDone} /> : children}
    </DialogContent>
  );
}
