import { zodResolver } from '@hookform/resolvers/zod';
import { AGENT_KINDS, createAgentTypeSchema, type AgentType, type UpdateAgentTypeInput } from '@console/domain';
import { Info, Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { FormField } from '@/components/form-field';
import { LabelledControl } from '@/components/labelled-control';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { useCreateAgentType, useUpdateAgentType } from '@/api/agents';
import { AGENT_KIND_LABELS, formatUnits } from '@/lib/agents';
import { MESSAGES } from '../wording';
import { fieldOf } from '@/lib/form';
import { ErrorAlert } from '@/components/error-alert';

const a = MESSAGES.agentPages;

/** The form's values: as typed (the price as text), checked with the catalog's schema. */
type FormInput = { code: string; name: string; description: string; kind: AgentType['kind'] | ''; unit: string; price: string };
const editSchema = createAgentTypeSchema.omit({ code: true });
type CreateOutput = z.output<typeof createAgentTypeSchema>;
/** Editing leaves the code as it is: the schema without it checks the rest. */
const resolvers = {
  create: zodResolver(createAgentTypeSchema) as unknown as Resolver<FormInput, unknown, CreateOutput>,
  edit: zodResolver(editSchema.extend({ code: createAgentTypeSchema.shape.code.optional() })) as unknown as Resolver<
    FormInput,
    unknown,
    CreateOutput
  >,
};

const EMPTY: FormInput = { code: '', name: '', description: '', kind: '', unit: '', price: '' };

function valuesOf(type: AgentType): FormInput {
  return {
    code: type.code,
    name: type.name,
    description: type.description ?? '',
    kind: type.kind,
    unit: type.unit,
    price: formatUnits(type.price).replace(/,/g, ''),
  };
}

/** Only what changed, so an unchanged price adds no price row and the audit names the real change. */
function changesOf(type: AgentType, values: z.output<typeof editSchema>): UpdateAgentTypeInput {
  const changes: UpdateAgentTypeInput = {};
  if (values.name !== type.name) changes.name = values.name;
  if ((values.description ?? '') !== (type.description ?? '')) changes.description = values.description ?? '';
  if (values.kind !== type.kind) changes.kind = values.kind;
  if (values.unit !== type.unit) changes.unit = values.unit;
  if (values.price !== type.price) changes.price = values.price;
  return changes;
}

/**
 * New agent type, or Edit one: code (new only; runtimes report with it), name, description,
 * kind, unit and price. Editing says that a new price applies to usage that occurs after it.
 */
export function AgentTypeDialog({ type }: { type?: AgentType }) {
  const editing = !!type;
  const [open, setOpen] = useState(false);
  const create = useCreateAgentType();
  const update = useUpdateAgentType();
  const mutation = editing ? update : create;
  const form = useForm<FormInput, unknown, CreateOutput>({
    resolver: editing ? resolvers.edit : resolvers.create,
    defaultValues: type ? valuesOf(type) : EMPTY,
  });
  const { errors, isSubmitting, isDirty } = form.formState;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) {
      form.reset(type ? valuesOf(type) : EMPTY);
      create.reset();
      update.reset();
    }
  }

  async function submit(values: CreateOutput) {
    try {
      if (type) {
        const saved = await update.mutateAsync({ id: type.id, body: changesOf(type, values) });
        toast.success(a.updated(saved.name));
      } else {
        const { description, ...rest } = values;
        const saved = await create.mutateAsync(description ? { ...rest, description } : rest);
        toast.success(a.created(saved.name));
      }
      setOpen(false);
    } catch {
      // The refusal is shown in the dialog.
    }
  }

  const idOf = (field: string) => `agent-type-${type?.id ?? 'new'}-${field}`;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        {type ? (
          <Button variant="outline" size="sm" aria-label={`${a.editType} ${type.name}`}>
            <Pencil aria-hidden />
            {a.editType}
          </Button>
        ) : (
          <Button>
            <Plus aria-hidden />
            {a.newType}
          </Button>
        )}
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <form noValidate className="grid gap-4" onSubmit={(event) => void form.handleSubmit(submit)(event)}>
          <DialogHeader>
            <DialogTitle>{type ? a.editTitle(type.name) : a.newType}</DialogTitle>
            <DialogDescription>{a.catalogSubtitle}</DialogDescription>
          </DialogHeader>
          <LabelledControl id={idOf('code')} label={a.code} hint={a.codeHint} error={errors.code?.message}>
            {(aria) => (
              <Input id={idOf('code')} autoComplete="off" spellCheck={false} readOnly={editing} {...aria} {...form.register('code')} />
            )}
          </LabelledControl>
          <FormField id={idOf('name')} label={a.name} autoComplete="off" {...fieldOf(form, 'name')} />
          <LabelledControl id={idOf('description')} label={a.description} error={errors.description?.message}>
            {(aria) => <Textarea id={idOf('description')} rows={2} {...aria} {...form.register('description')} />}
          </LabelledControl>
          <div className="grid gap-4 sm:grid-cols-2">
            <LabelledControl id={idOf('kind')} label={a.kind} error={errors.kind?.message}>
              {(aria) => (
                <NativeSelect id={idOf('kind')} {...aria} {...form.register('kind')}>
                  <option value="" disabled>
                    Choose a kind
                  </option>
                  {AGENT_KINDS.map((kind) => (
                    <option key={kind} value={kind}>
                      {AGENT_KIND_LABELS[kind]}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </LabelledControl>
            <LabelledControl id={idOf('unit')} label={a.unit} hint={a.unitHint} error={errors.unit?.message}>
              {(aria) => <Input id={idOf('unit')} autoComplete="off" {...aria} {...form.register('unit')} />}
            </LabelledControl>
          </div>
          <LabelledControl id={idOf('price')} label={a.price} hint={a.priceHint} error={errors.price?.message}>
            {(aria) => <Input id={idOf('price')} inputMode="decimal" autoComplete="off" {...aria} {...form.register('price')} />}
          </LabelledControl>
          {editing && (
            <Alert variant="info">
              <Info aria-hidden />
              <AlertDescription>{a.priceChangeNote}</AlertDescription>
            </Alert>
          )}
          {mutation.isError && <ErrorAlert title={a.saveFailed} message={mutation.error.message} />}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              {a.cancel}
            </Button>
            <Button type="submit" disabled={isSubmitting || (editing && !isDirty)}>
              {isSubmitting ? a.saving : editing ? a.save : a.create}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
