import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { agentQueries, useActivateAgent } from '@/api/agents';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { AGENT_KIND_LABELS, formatPrice } from '@/lib/agents';
import { MESSAGES } from '../wording';
import { ErrorAlert } from '@/components/error-alert';

const a = MESSAGES.agentPages;
const b = MESSAGES.billingPages;

interface ActivateAgentDialogProps {
  organizationId: string;
  /** The agent types already live here, which the picker leaves out. */
  activatedTypeIds: readonly string[];
  active: number;
  limit: number;
  /** The limit is reached: the trigger is disabled. */
  disabled: boolean;
}

/** Activate: a picker of the catalog's active agent types not yet activated here, with "used / limit". */
export function ActivateAgentDialog({ organizationId, activatedTypeIds, active, limit, disabled }: ActivateAgentDialogProps) {
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState<string | null>(null);
  const catalog = useQuery({ ...agentQueries.types(), enabled: open });
  const activate = useActivateAgent(organizationId);
  const legendId = useId();
  const choices = (catalog.data ?? []).filter((type) => type.status === 'active' && !activatedTypeIds.includes(type.id));

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      setChoice(null);
      activate.reset();
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const type = choices.find((candidate) => candidate.id === choice);
    if (!type) return;
    try {
      await activate.mutateAsync(type.id);
    } catch {
      // The refusal is shown in the dialog.
      return;
    }
    toast.success(a.activated(type.name));
    onOpenChange(false);
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button size="sm" disabled={disabled}>
          <Plus aria-hidden />
          {a.activate}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <form onSubmit={(event) => void submit(event)} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{a.activateTitle}</DialogTitle>
            <DialogDescription>
              {a.activateDescription} <span className="tabular-nums">{b.agentsUsed(active, limit)}</span>
            </DialogDescription>
          </DialogHeader>
          {catalog.isPending ? (
            <LoadingRows rows={3} />
          ) : catalog.isError ? (
            <QueryError error={catalog.error} title={MESSAGES.agentPages.loadCatalogFailed} onRetry={catalog.refetch} />
          ) : choices.length === 0 ? (
            <p className="text-sm text-muted-foreground">{a.noTypesLeft}</p>
          ) : (
            <fieldset className="grid gap-2" aria-labelledby={legendId}>
              <legend id={legendId} className="sr-only">
                {a.activateTitle}
              </legend>
              {choices.map((type) => (
                <label
                  key={type.id}
                  className="flex cursor-pointer items-start gap-3 rounded-md border p-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent"
                >
                  <input
                    type="radio"
                    name="agent_type_id"
                    value={type.id}
                    checked={choice === type.id}
                    onChange={() => setChoice(type.id)}
                    className="mt-1"
                  />
                  <span className="grid min-w-0 gap-0.5">
                    <span className="font-medium">{type.name}</span>
                    <span className="text-muted-foreground">
                      {AGENT_KIND_LABELS[type.kind]} · {formatPrice(type.price, type.unit)}
                    </span>
                    {type.description && <span className="break-words text-muted-foreground">{type.description}</span>}
                  </span>
                </label>
              ))}
            </fieldset>
          )}
          {activate.isError && <ErrorAlert title={a.activateFailed} message={activate.error.message} />}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {a.cancel}
            </Button>
            <Button type="submit" disabled={!choice || activate.isPending}>
              {activate.isPending ? a.activating : a.activateButton}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
