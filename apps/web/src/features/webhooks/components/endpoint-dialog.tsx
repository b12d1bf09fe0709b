import { zodResolver } from '@hookform/resolvers/zod';
import { createWebhookEndpointSchema, type UpdateWebhookEndpointInput, type WebhookEndpoint } from '@console/domain';
import { Plus, Webhook } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm, type Path } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { ErrorAlert } from '@/components/error-alert';
import { FormField } from '@/components/form-field';
import { SecretDialogContent } from '@/components/secret-view';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { useCreateWebhookEndpoint, useUpdateWebhookEndpoint } from '@/api/webhooks';
import { applyServerErrors } from '@/lib/form';
import { MESSAGES } from '../wording';
import { EventTypesField } from './event-types-field';

const w = MESSAGES.webhookPages;

type FormInput = z.input<typeof createWebhookEndpointSchema>;
type FormOutput = z.output<typeof createWebhookEndpointSchema>;

/** The fields the server may name in a refusal (400 with `fields`, 422 for a private address). */
const FIELDS: readonly Path<FormInput>[] = ['url', 'description', 'event_types', 'include_subtree', 'enabled'];

const EMPTY: FormInput = { url: '', description: '', event_types: [], include_subtree: false, enabled: true };

const formOf = (endpoint: WebhookEndpoint): FormInput => ({
  url: endpoint.url,
  description: endpoint.description,
  event_types: endpoint.event_types,
  include_subtree: endpoint.include_subtree,
  enabled: endpoint.enabled,
});

/** What an edit changed, and only that: a field left as it was is not sent. */
function changesOf(endpoint: WebhookEndpoint, values: FormOutput): UpdateWebhookEndpointInput {
  const body: UpdateWebhookEndpointInput = {};
  if (values.url !== endpoint.url) body.url = values.url;
  if (values.description !== endpoint.description) body.description = values.description;
  if (values.event_types.join() !== endpoint.event_types.join()) body.event_types = values.event_types;
  if (values.include_subtree !== endpoint.include_subtree) body.include_subtree = values.include_subtree;
  if (values.enabled !== endpoint.enabled) body.enabled = values.enabled;
  return body;
}

/** The form's fields: URL, description, events, the subtree switch (where there is a subtree) and Enabled. */
function EndpointFields({
  form,
  idPrefix,
  offersSubtree,
}: {
  form: ReturnType<typeof useForm<FormInput, unknown, FormOutput>>;
  idPrefix: string;
  offersSubtree: boolean;
}) {
  const { errors } = form.formState;
  return (
    <>
      <FormField
        id={`${idPrefix}-url`}
        label={w.url}
        type="url"
        inputMode="url"
        placeholder="https://"
        autoComplete="off"
        spellCheck={false}
        error={errors.url?.message}
        {...form.register('url')}
      />
      <FormField
        id={`${idPrefix}-description`}
        label={w.description}
        autoComplete="off"
        error={errors.description?.message}
        {...form.register('description')}
      />
      <Controller
        control={form.control}
        name="event_types"
        render={({ field, fieldState }) => (
          <EventTypesField id={`${idPrefix}-events`} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
        )}
      />
      {offersSubtree && (
        <Controller
          control={form.control}
          name="include_subtree"
          render={({ field }) => (
            <div className="flex items-start gap-3">
              <Switch
                id={`${idPrefix}-subtree`}
                className="mt-0.5"
                checked={!!field.value}
                onCheckedChange={field.onChange}
                aria-describedby={`${idPrefix}-subtree-hint`}
              />
              <div className="grid gap-1">
                <Label htmlFor={`${idPrefix}-subtree`}>{w.subtree}</Label>
                <p id={`${idPrefix}-subtree-hint`} className="text-sm text-muted-foreground">
                  {w.subtreeHint}
                </p>
              </div>
            </div>
          )}
        />
      )}
      <Controller
        control={form.control}
        name="enabled"
        render={({ field }) => (
          <div className="flex items-start gap-3">
            <Switch
              id={`${idPrefix}-enabled`}
              className="mt-0.5"
              checked={!!field.value}
              onCheckedChange={field.onChange}
              aria-describedby={`${idPrefix}-enabled-hint`}
            />
            <div className="grid gap-1">
              <Label htmlFor={`${idPrefix}-enabled`}>{w.enabled}</Label>
              <p id={`${idPrefix}-enabled-hint`} className="text-sm text-muted-foreground">
                {w.enabledHint}
              </p>
            </div>
          </div>
        )}
      />
    </>
  );
}

/** A form dialog tall enough for the events: it scrolls within the window rather than past it. */
const CONTENT = 'max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-2xl';

/**
 * Add endpoint: URL, description, events, whether the organizations below count too (never
 * offered to a tenant, which has none) and Enabled; then the signing secret, shown once. While
 * the secret is shown the dialog closes only through Done or its close button.
 */
export function CreateEndpointDialog({ organizationId, offersSubtree }: { organizationId: string; offersSubtree: boolean }) {
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateWebhookEndpoint(organizationId);
  const form = useForm<FormInput, unknown, FormOutput>({ resolver: zodResolver(createWebhookEndpointSchema), defaultValues: EMPTY });
  const secret = create.data?.secret ?? null;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      // The secret leaves memory with the dialog.
      create.reset();
      form.reset(EMPTY);
      setFailure(null);
    }
  }

  async function submit(values: FormOutput) {
    setFailure(null);
    try {
      await create.mutateAsync({ ...values, include_subtree: offersSubtree && values.include_subtree });
      toast.success(w.added);
    } catch (error) {
      setFailure(applyServerErrors(error, FIELDS, form.setError));
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button size="sm">
          <Plus aria-hidden />
          {w.add}
        </Button>
      </DialogTrigger>
      <SecretDialogContent secret={secret} wording={w} onDone={() => onOpenChange(false)} className={CONTENT}>
        <form noValidate className="grid min-w-0 gap-4" onSubmit={(event) => void form.handleSubmit(submit)(event)}>
          <DialogHeader>
            <DialogTitle className="flex items-center gap-2">
              <Webhook className="size-4" aria-hidden />
              {w.addTitle}
            </DialogTitle>
            <DialogDescription>{w.addDescription}</DialogDescription>
          </DialogHeader>
          <EndpointFields form={form} idPrefix="webhook-new" offersSubtree={offersSubtree} />
          {failure && <ErrorAlert title={w.addFailed} message={failure} />}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {w.cancel}
            </Button>
            <Button type="submit" disabled={form.formState.isSubmitting}>
              {form.formState.isSubmitting ? w.adding : w.add}
            </Button>
          </DialogFooter>
        </form>
      </SecretDialogContent>
    </Dialog>
  );
}

/** An endpoint that may be changed, its organization's, and whether the form offers the subtree switch (there is a subtree). */
export interface EndpointEditProps {
  organizationId: string;
  endpoint: WebhookEndpoint;
  offersSubtree: boolean;
}

/** Edit an endpoint: the same fields, filled in; only what changed is sent. */
export function EditEndpointDialog({ organizationId, endpoint, offersSubtree }: EndpointEditProps) {
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const update = useUpdateWebhookEndpoint(organizationId);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(createWebhookEndpointSchema),
    defaultValues: formOf(endpoint),
  });
  const idPrefix = `webhook-${endpoint.id}`;

  function onOpenChange(next: boolean) {
    setOpen(next);
    setFailure(null);
    if (next) form.reset(formOf(endpoint));
  }

  async function submit(values: FormOutput) {
    setFailure(null);
    const body = changesOf(endpoint, values);
    try {
      if (Object.keys(body).length > 0) await update.mutateAsync({ endpointId: endpoint.id, body });
      toast.success(w.saved);
      setOpen(false);
    } catch (error) {
      setFailure(applyServerErrors(error, FIELDS, form.setError));
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`${w.edit} ${endpoint.url}`}>
          {w.edit}
        </Button>
      </DialogTrigger>
      <DialogContent className={CONTENT}>
        <form noValidate className="grid min-w-0 gap-4" onSubmit={(event) => void form.handleSubmit(submit)(event)}>
          <DialogHeader>
            <DialogTitle>{w.editTitle}</DialogTitle>
            <DialogDescription>{w.editDescription}</DialogDescription>
          </DialogHeader>
          {/* A tenant's endpoint never had the subtree; one that has it keeps the switch to turn it off. */}
          <EndpointFields form={form} idPrefix={idPrefix} offersSubtree={offersSubtree || endpoint.include_subtree} />
          {failure && <ErrorAlert title={w.saveFailed} message={failure} />}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {w.cancel}
            </Button>
            <Button type="submit" disabled={form.formState.isSubmitting}>
              {form.formState.isSubmitting ? w.saving : w.save}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
