import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@console/domain';
import { useEffect, useRef, type ComponentProps } from 'react';
import { MESSAGES } from '../wording';
import { WEBHOOK_EVENT_GROUPS, WEBHOOK_EVENT_LABELS } from '../event-labels';

const w = MESSAGES.webhookPages;

/** A checkbox that also shows "some of them" (indeterminate), which only the DOM property sets. */
function TriStateCheckbox({ some, ...props }: ComponentProps<'input'> & { some: boolean }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = some;
  }, [some]);
  return <input ref={ref} type="checkbox" aria-checked={some ? 'mixed' : undefined} {...props} />;
}

/**
 * The events an endpoint subscribes to: one checkbox a type (its label and its code), grouped by
 * what they are about, each group with a checkbox for all of it, and one for every event.
 * The order sent is the domain's, whatever order they were ticked in.
 */
export function EventTypesField({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: readonly WebhookEventType[];
  onChange(types: WebhookEventType[]): void;
  error?: string;
}) {
  const chosen = new Set(value);
  const set = (types: readonly WebhookEventType[], on: boolean) => {
    const next = new Set(chosen);
    for (const type of types) {
      if (on) next.add(type);
      else next.delete(type);
    }
    onChange(WEBHOOK_EVENT_TYPES.filter((type) => next.has(type)));
  };
  const all = WEBHOOK_EVENT_TYPES.every((type) => chosen.has(type));
  const errorId = `${id}-error`;
  return (
    <fieldset className="grid min-w-0 gap-3" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 flex w-full flex-wrap items-baseline justify-between gap-2 text-sm font-medium">
        <span>{w.events}</span>
        <span className="text-xs font-normal text-muted-foreground">{w.eventsChosen(chosen.size, WEBHOOK_EVENT_TYPES.length)}</span>
      </legend>
      <label className="flex items-center gap-3 text-sm font-medium">
        <TriStateCheckbox
          some={!all && chosen.size > 0}
          checked={all}
          onChange={(event) => set(WEBHOOK_EVENT_TYPES, event.target.checked)}
        />
        {w.selectAll}
      </label>
      <div className="grid gap-3 sm:grid-cols-2">
        {WEBHOOK_EVENT_GROUPS.map(({ group, label, types }) => {
          const count = types.filter((type) => chosen.has(type)).length;
          return (
            <fieldset key={group} className="grid min-w-0 content-start gap-2 rounded-md border p-3">
              <legend className="px-1 text-sm font-medium">
                <label className="flex items-center gap-2">
                  <TriStateCheckbox
                    some={count > 0 && count < types.length}
                    checked={count === types.length}
                    aria-label={w.selectGroup(label)}
                    onChange={(event) => set(types, event.target.checked)}
                  />
                  {label}
                </label>
              </legend>
              {types.map((type) => (
                <label key={type} className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="mt-1"
                    value={type}
                    checked={chosen.has(type)}
                    onChange={(event) => set([type], event.target.checked)}
                  />
                  <span className="grid min-w-0">
                    <span>{WEBHOOK_EVENT_LABELS[type]}</span>
                    <code className="text-xs break-all text-muted-foreground">{type}</code>
                  </span>
                </label>
              ))}
            </fieldset>
          );
        })}
      </div>
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}
