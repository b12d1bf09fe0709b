import { agentLimitRange, agentLimitSchema, TIMING, type AgentLimitFacts } from '@console/domain';
import { AlertCircle } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { FormDialog } from '@/components/form-dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ApiError } from '@/lib/api';
import { useUpdateAgentLimit } from '@/api/billing';
import { reloadPage } from '@/lib/reload';
import { MESSAGES } from '@/lib/wording';

const m = MESSAGES.billingPages;

/** A non-numeric entry becomes 0; anything else is validated as typed. */
function toLimit(text: string): number {
  const value = Number(text.trim());
  return text.trim() === '' || Number.isNaN(value) ? 0 : value;
}

interface AdjustLimitDialogProps {
  organizationId: string;
  currentLimit: number;
  /** What the server holds a new limit to: the children's total, the active agents and the parent's capacity left. */
  facts: AgentLimitFacts;
}

/** Adjust Agent Limit: the current limit read-only, a number for the new one; the page reloads 1.5 s after a save. */
export function AdjustLimitDialog({ organizationId, currentLimit, facts }: AdjustLimitDialogProps) {
  const range = agentLimitRange(facts);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(String(currentLimit));
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const update = useUpdateAgentLimit(organizationId);
  const currentId = useId();
  const newId = useId();
  const errorId = useId();
  const unchanged = toLimit(text) === currentLimit;
  // The reload scheduled after a save; leaving the page first makes it unnecessary.
  const reloadTimer = useRef<number | undefined>(undefined);
  const newInput = useRef<HTMLInputElement>(null);
  useEffect(() => () => window.clearTimeout(reloadTimer.current), []);

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) {
      setText(String(currentLimit));
      setError(null);
      setFailure(null);
    }
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const parsed = agentLimitSchema.safeParse({ activated_agent_limit: toLimit(text) });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? MESSAGES.billing.invalidValue);
      return;
    }
    setError(null);
    const limit = parsed.data.activated_agent_limit;
    try {
      await update.mutateAsync(limit);
    } catch (caught) {
      const reason = caught instanceof ApiError ? caught.message : MESSAGES.generic.unexpected;
      // The reason stays in the dialog beside the value to correct; the toast says the change was not made.
      setFailure(reason);
      toast.error(MESSAGES.billing.updateFailed(reason));
      return;
    }
    setOpen(false);
    toast.success(MESSAGES.billing.updated, { description: MESSAGES.billing.newLimit(limit) });
    reloadTimer.current = window.setTimeout(reloadPage, TIMING.agentLimitReloadMs);
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel={m.adjustLimit}
      title={m.adjustTitle}
      description={m.adjustDescription(range.min, range.max)}
      onSubmit={(event) => void onSubmit(event)}
      onOpenAutoFocus={(event) => {
        // The new limit is what the user came to type, not the read-only current one.
        event.preventDefault();
        newInput.current?.focus();
        newInput.current?.select();
      }}
      cancelLabel={m.cancel}
      submitLabel={update.isPending ? m.updating : m.updateLimit}
      submitDisabled={unchanged || update.isPending}
    >
      <div className="grid gap-2">
        <Label htmlFor={currentId}>{m.currentLimit}</Label>
        <Input id={currentId} value={currentLimit} readOnly />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={newId}>{m.newLimitLabel}</Label>
        <Input
          id={newId}
          ref={newInput}
          type="number"
          inputMode="numeric"
          min={range.min}
          max={range.max ?? undefined}
          step={1}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {error && (
          <p id={errorId} className="text-sm text-destructive">
            {error}
          </p>
        )}
      </div>
      {failure && (
        <Alert variant="destructive">
          <AlertCircle aria-hidden />
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      )}
    </FormDialog>
  );
}
