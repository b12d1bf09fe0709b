import { zodResolver } from '@hookform/resolvers/zod';
import { API_SCOPES } from '@console/domain';
import { KeyRound, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { FormField } from '@/components/form-field';
import { LabelledControl } from '@/components/labelled-control';
import { ErrorAlert } from '@/components/error-alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { useCreateApiKey } from '@/api/api-keys';
import { API_SCOPE_LABELS } from '../scope-labels';
import { createKeyFormSchema, endOfDay, rateLimitOf, type CreateKeyForm } from '../key-form';
import { SecretDialogContent } from '@/components/secret-view';
import { MESSAGES } from '../wording';

const k = MESSAGES.apiKeyPages;

const DEFAULTS: CreateKeyForm = { name: '', scopes: [], expires_on: '', rate_limit: '' };

/**
 * Create key: a name, the scopes, and optionally an end date and a rate limit, then the secret
 * shown once. While the secret is shown the dialog closes only through Done or its close
 * button, not by a stray click outside.
 */
export function CreateApiKeyDialog({ organizationId, rateLimitCeiling }: { organizationId: string; rateLimitCeiling: number | null }) {
  const [open, setOpen] = useState(false);
  const create = useCreateApiKey(organizationId);
  const form = useForm<CreateKeyForm, unknown, CreateKeyForm>({ resolver: zodResolver(createKeyFormSchema), defaultValues: DEFAULTS });
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

  async function submit(values: CreateKeyForm) {
    const rateLimit = rateLimitOf(values.rate_limit);
    try {
      await create.mutateAsync({
        name: values.name,
        scopes: values.scopes,
        ...(values.expires_on && { expires_at: endOfDay(values.expires_on) }),
        ...(rateLimit != null && { rate_limit_per_minute: rateLimit }),
      });
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
      <SecretDialogContent secret={secret} wording={k} onDone={() => onOpenChange(false)}>
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
          <div className="grid gap-4 sm:grid-cols-2">
            <LabelledControl id="api-key-expires" label={k.expiresOn} hint={k.expiresHint} error={errors.expires_on?.message}>
              {(aria) => <Input id="api-key-expires" type="date" {...aria} {...form.register('expires_on')} />}
            </LabelledControl>
            <LabelledControl
              id="api-key-rate-limit"
              label={k.rateLimit}
              hint={k.rateLimitHint(rateLimitCeiling)}
              error={errors.rate_limit?.message}
            >
              {(aria) => (
                <Input id="api-key-rate-limit" inputMode="numeric" autoComplete="off" {...aria} {...form.register('rate_limit')} />
              )}
            </LabelledControl>
          </div>
          {create.isError && <ErrorAlert title={k.createFailed} message={create.error.message} />}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {MESSAGES.agentPages.cancel}
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? k.creating : k.create}
            </Button>
          </DialogFooter>
        </form>
      </SecretDialogContent>
    </Dialog>
  );
}
