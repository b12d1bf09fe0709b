import { zodResolver } from '@hookform/resolvers/zod';
import { API_SCOPES, createApiKeySchema, type CreateApiKeyInput } from '@console/domain';
import { AlertCircle, Copy, KeyRound, Plus, TriangleAlert } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { FormField } from '@/components/form-field';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useCreateApiKey } from '@/api/api-keys';
import { API_SCOPE_LABELS } from '../scope-labels';
import { MESSAGES } from '@/lib/wording';

const k = MESSAGES.apiKeyPages;

type FormOutput = z.output<typeof createApiKeySchema>;
const DEFAULTS: CreateApiKeyInput = { name: '', scopes: [] };

/** The new key once: a warning that it is never shown again, the key read-only, and Copy. */
function SecretView({ secret, onDone }: { secret: string; onDone(): void }) {
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
        <DialogTitle>{k.secretTitle}</DialogTitle>
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
 * Create key: a name and the scopes, then the secret shown once. While the secret is shown
 * the dialog closes only through Done or its close button, not by a stray click outside.
 */
export function CreateApiKeyDialog({ organizationId }: { organizationId: string }) {
  const [open, setOpen] = useState(false);
  const create = useCreateApiKey(organizationId);
  const form = useForm<CreateApiKeyInput, unknown, FormOutput>({ resolver: zodResolver(createApiKeySchema), defaultValues: DEFAULTS });
  const { errors, isSubmitting } = form.formState;
  const scopesId = useId();
  const secret = create.data?.secret ?? null;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      // The secret leaves memory with the dialog.
      create.reset();
      form.reset(DEFAULTS);
    }
  }

  async function submit(values: FormOutput) {
    try {
      await create.mutateAsync(values);
      toast.success(k.created);
    } catch {
      // The refusal is shown in the dialog.
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button size="sm">
          <Plus aria-hidden />
          {k.create}
        </Button>
      </DialogTrigger>
      <DialogContent
        onInteractOutside={(event) => {
          if (secret) event.preventDefault();
        }}
      >
        {secret ? (
          <SecretView secret={secret} onDone={() => onOpenChange(false)} />
        ) : (
          <form noValidate className="grid gap-4" onSubmit={(event) => void form.handleSubmit(submit)(event)}>
            <DialogHeader>
              <DialogTitle className="flex items-center gap-2">
                <KeyRound className="size-4" aria-hidden />
                {k.createTitle}
              </DialogTitle>
              <DialogDescription>{k.createDescription}</DialogDescription>
            </DialogHeader>
            <FormField id="api-key-name" label={k.name} autoComplete="off" error={errors.name?.message} {...form.register('name')} />
            <fieldset className="grid gap-2" aria-describedby={errors.scopes ? `${scopesId}-error` : undefined}>
              <legend className="mb-1 text-sm font-medium">{k.scopes}</legend>
              {API_SCOPES.map((scope) => (
                <label key={scope} className="flex items-start gap-3 rounded-md border p-3 text-sm">
                  <input type="checkbox" value={scope} className="mt-1" {...form.register('scopes')} />
                  <span className="grid gap-0.5">
                    <span className="font-medium">
                      {API_SCOPE_LABELS[scope].label} <code className="text-xs text-muted-foreground">{scope}</code>
                    </span>
                    <span className="text-muted-foreground">{API_SCOPE_LABELS[scope].description}</span>
                  </span>
                </label>
              ))}
              {errors.scopes && (
                <p id={`${scopesId}-error`} className="text-sm text-destructive">
                  {errors.scopes.message}
                </p>
              )}
            </fieldset>
            {create.isError && (
              <Alert variant="destructive">
                <AlertCircle aria-hidden />
                <AlertTitle>{k.createFailed}</AlertTitle>
                <AlertDescription>{create.error.message}</AlertDescription>
              </Alert>
            )}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
                {MESSAGES.agentPages.cancel}
              </Button>
              <Button type="submit" disabled={isSubmitting}>
                {isSubmitting ? k.creating : k.create}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
