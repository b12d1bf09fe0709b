import { createScimTokenInputSchema, type ScimToken } from '@console/domain';
import { Plus, RefreshCw, TriangleAlert } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { useCreateScimToken, useRotateScimToken } from '@/api/identity';
import { ErrorAlert } from '@/components/error-alert';
import { LabelledControl } from '@/components/labelled-control';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { MESSAGES } from '../wording';
import { CopyValue } from './copy-value';

const s = MESSAGES.identityPages.scim;

interface Secret {
  secret: string;
  base_url: string;
}

/**
 * A dialog's content that becomes the new token once there is one: the warning that it is
 * shown only now, the SCIM base URL and the token, each with Copy. Until Done, a click outside
 * does not close it, so the token is not lost by accident.
 */
function TokenDialogContent({
  created,
  title,
  onDone,
  children,
}: {
  created: Secret | null;
  title: string;
  onDone(): void;
  children: ReactNode;
}) {
  return (
    <DialogContent
      onInteractOutside={(event) => {
        if (created) event.preventDefault();
      }}
    >
      {created ? (
        <div className="grid min-w-0 gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription className="sr-only">{s.secretWarning}</DialogDescription>
          </DialogHeader>
          <Alert className="border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
            <TriangleAlert aria-hidden />
            <AlertDescription className="text-inherit">{s.secretWarning}</AlertDescription>
          </Alert>
          <CopyValue label={s.baseUrl} value={created.base_url} />
          <CopyValue label={s.secretLabel} copyName={s.secretLabel.toLowerCase()} value={created.secret} />
          <DialogFooter>
            <Button type="button" onClick={onDone}>
              {s.done}
            </Button>
          </DialogFooter>
        </div>
      ) : (
        children
      )}
    </DialogContent>
  );
}

/** Create token: a name, then the token and base URL shown once. Asks for a step-up. */
export function CreateScimTokenDialog({ organizationId, disabled }: { organizationId: string; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const create = useCreateScimToken(organizationId);

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      // The token leaves memory with the dialog.
      create.reset();
      setName('');
      setError(undefined);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = createScimTokenInputSchema.safeParse({ name });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    try {
      await create.mutateAsync(parsed.data.name);
      toast.success(s.createdToast);
    } catch {
      // The refusal is shown in the dialog.
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button size="sm" className="w-fit" disabled={disabled}>
          <Plus aria-hidden />
          {s.create}
        </Button>
      </DialogTrigger>
      <TokenDialogContent created={create.data ?? null} title={s.secretTitle} onDone={() => onOpenChange(false)}>
        <form noValidate className="grid min-w-0 gap-4" onSubmit={(event) => void submit(event)}>
          <DialogHeader>
            <DialogTitle>{s.createTitle}</DialogTitle>
            <DialogDescription>{s.createDescription}</DialogDescription>
          </DialogHeader>
          <LabelledControl id="scim-token-name" label={s.name} hint={s.nameHint} error={error}>
            {(aria) => (
              <Input id="scim-token-name" value={name} autoComplete="off" onChange={(event) => setName(event.target.value)} {...aria} />
            )}
          </LabelledControl>
          {create.isError && <ErrorAlert title={s.createFailed} message={create.error.message} />}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {MESSAGES.identityPages.cancel}
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? s.creating : s.create}
            </Button>
          </DialogFooter>
        </form>
      </TokenDialogContent>
    </Dialog>
  );
}

/** Rotate: asked first, then the new token shown once; the old one stops at once. Asks for a step-up. */
export function RotateScimTokenDialog({ organizationId, token }: { organizationId: string; token: ScimToken }) {
  const [open, setOpen] = useState(false);
  const rotate = useRotateScimToken(organizationId);

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) rotate.reset();
  }

  async function confirm() {
    try {
      await rotate.mutateAsync(token.id);
      toast.success(s.rotated(token.name));
    } catch {
      // The refusal is shown in the dialog.
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`${s.rotate} ${token.name}`}>
          <RefreshCw aria-hidden />
          {s.rotate}
        </Button>
      </DialogTrigger>
      <TokenDialogContent created={rotate.data ?? null} title={s.rotatedTitle} onDone={() => onOpenChange(false)}>
        <div className="grid min-w-0 gap-4">
          <DialogHeader>
            <DialogTitle>{s.rotateTitle(token.name)}</DialogTitle>
            <DialogDescription>{s.rotateBody}</DialogDescription>
          </DialogHeader>
          {rotate.isError && <ErrorAlert title={s.rotateFailed} message={rotate.error.message} />}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {MESSAGES.identityPages.cancel}
            </Button>
            <Button type="button" disabled={rotate.isPending} onClick={() => void confirm()}>
              {rotate.isPending ? s.rotating : s.rotate}
            </Button>
          </DialogFooter>
        </div>
      </TokenDialogContent>
    </Dialog>
  );
}
