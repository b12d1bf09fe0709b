import { useQuery } from '@tanstack/react-query';
import { CalendarClock, X } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { agentQueries } from '@/api/agents';
import { LabelledControl } from '@/components/labelled-control';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { MESSAGES } from '../wording';
import type { TermsFieldsInput } from '../grant-terms';

const t = MESSAGES.grantPages.terms;

interface TermsHost {
  terms: TermsFieldsInput;
}

/** The agent types of the catalog still offered, as checkboxes by name (their codes are sent). */
function AgentChecklist({ id, error }: { id: string; error?: string }) {
  const { register } = useFormContext<TermsHost>();
  const catalog = useQuery(agentQueries.types());
  if (catalog.isPending) return <LoadingRows rows={2} />;
  if (catalog.isError) return <QueryError error={catalog.error} title={t.catalogFailed} onRetry={catalog.refetch} />;
  const offered = catalog.data.filter((type) => type.status !== 'retired');
  if (offered.length === 0) return <p className="text-sm text-muted-foreground">{t.noAgentTypes}</p>;
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-1 text-sm font-medium">{t.agentsLabel}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {offered.map((type) => (
          <label key={type.code} className="flex items-start gap-2 rounded-md border p-2 text-sm">
            <input type="checkbox" value={type.code} className="mt-0.5" {...register('terms.agent_types')} />
            <span className="min-w-0 wrap-anywhere">{type.name}</span>
          </label>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/**
 * The optional Terms of credits being added, closed at first: an expiry (the viewer's local
 * time, sent as an instant), every agent or a checklist of the catalog's agent types, and a
 * priority from 0 to 100. Closing it drops the terms: the credits are then open credits.
 * The form it sits in (a FormProvider) validates them with the domain's grantTermsSchema.
 */
export function GrantTermsFields({ idPrefix }: { idPrefix: string }) {
  const { register, setValue, setFocus, getFieldState, formState, control } = useFormContext<TermsHost>();
  const open = useWatch({ control, name: 'terms.with_terms' });
  const scope = useWatch({ control, name: 'terms.scope' });
  const sectionId = useId();
  // Opening moves the focus to the first field, closing back to the button: the control pressed is gone.
  const moved = useRef(false);
  const addButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    if (open) setFocus('terms.expires_at');
    else addButton.current?.focus();
  }, [open, setFocus]);
  function toggle(next: boolean) {
    moved.current = true;
    setValue('terms.with_terms', next, { shouldDirty: true, shouldValidate: formState.isSubmitted });
  }
  const errorOf = (name: 'terms.expires_at' | 'terms.agent_types' | 'terms.priority') => getFieldState(name, formState).error?.message;

  if (!open) {
    return (
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="h-auto w-full justify-start whitespace-normal py-2 text-left sm:w-auto"
        aria-expanded={false}
        aria-controls={sectionId}
        ref={addButton}
        onClick={() => toggle(true)}
      >
        <CalendarClock aria-hidden />
        {t.add}
      </Button>
    );
  }
  return (
    <fieldset id={sectionId} className="grid gap-3 rounded-md border p-3 sm:p-4" aria-describedby={`${idPrefix}-terms-description`}>
      <legend className="px-1 text-sm font-semibold">{t.title}</legend>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p id={`${idPrefix}-terms-description`} className="min-w-0 flex-1 basis-56 text-sm text-muted-foreground">
          {t.description}
        </p>
        <Button type="button" variant="ghost" size="sm" aria-expanded aria-controls={sectionId} onClick={() => toggle(false)}>
          <X aria-hidden />
          {t.remove}
        </Button>
      </div>
      <LabelledControl id={`${idPrefix}-expires`} label={t.expiresAt} hint={t.expiresHint} error={errorOf('terms.expires_at')}>
        {(aria) => <Input id={`${idPrefix}-expires`} type="datetime-local" {...aria} {...register('terms.expires_at')} />}
      </LabelledControl>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{t.agents}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
          <label className="flex items-center gap-2">
            <input type="radio" value="every" {...register('terms.scope')} />
            {t.everyAgent}
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" value="some" {...register('terms.scope')} />
            {t.someAgents}
          </label>
        </div>
      </fieldset>
      {scope === 'some' && <AgentChecklist id={`${idPrefix}-agents`} error={errorOf('terms.agent_types')} />}
      <LabelledControl id={`${idPrefix}-priority`} label={t.priority} hint={t.priorityHint} error={errorOf('terms.priority')}>
        {(aria) => (
          <Input
            id={`${idPrefix}-priority`}
            inputMode="numeric"
            autoComplete="off"
            className="sm:max-w-32"
            {...aria}
            {...register('terms.priority')}
          />
        )}
      </LabelledControl>
    </fieldset>
  );
}
