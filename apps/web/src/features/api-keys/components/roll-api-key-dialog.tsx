import { API_KEY_LIFECYCLE, type ApiKey } from '@console/domain';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ErrorAlert } from '@/components/error-alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { useRollApiKey } from '@/api/api-keys';
import { SecretDialogContent } from '@/components/secret-view';
import { MESSAGES } from '../wording';

const k = MESSAGES.apiKeyPages;

/**
 * Roll: the grace period the old secret keeps working (none, 1 hour, 24 hours, 7 days), then
 * the new secret shown once, as Create key shows it. While it is shown the dialog closes only
 * through Done or its close button.
 */
export function RollApiKeyDialog({ organizationId, apiKey }: { organizationId: string; apiKey: ApiKey }) {
  const [open, setOpen] = useState(false);
  const [grace, setGrace] = useState<number>(API_KEY_LIFECYCLE.gracePresets[1]);
  const roll = useRollApiKey(organizationId);
  const secret = roll.data?.secret ?? null;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      // The secret leaves memory with the dialog.
      roll.reset();
      setGrace(API_KEY_LIFECYCLE.gracePresets[1]);
    }
  }

  async function confirm() {
    try {
      await roll.mutateAsync({ keyId: apiKey.id, body: { grace_seconds: grace } });
      toast.success(k.rolled(apiKey.name));
    } catch {
      // The refusal is shown in the dialog.
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`${k.roll} ${apiKey.name}`}>
          <RefreshCw aria-hidden />
          {k.roll}
        </Button>
      </DialogTrigger>
      <SecretDialogContent secret={secret} wording={k} title={k.rolledSecretTitle} onDone={() => onOpenChange(false)}>
        <div className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{k.rollTitle(apiKey.name)}</DialogTitle>
            <DialogDescription>{k.rollDescription}</DialogDescription>
          </DialogHeader>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">{k.grace}</legend>
            {API_KEY_LIFECYCLE.gracePresets.map((seconds) => (
              <label key={seconds} className="flex items-center gap-3 rounded-md border p-3 text-sm">
                <input
                  type="radio"
                  name={`grace-${apiKey.id}`}
                  value={seconds}
                  checked={grace === seconds}
                  onChange={() => setGrace(seconds)}
                />
                {k.graceLabels[seconds]}
              </label>
            ))}
          </fieldset>
          {roll.isError && <ErrorAlert title={k.rollFailed} message={roll.error.message} />}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {MESSAGES.agentPages.cancel}
            </Button>
            <Button type="button" onClick={() => void confirm()} disabled={roll.isPending}>
              {roll.isPending ? k.rolling : k.roll}
            </Button>
          </DialogFooter>
        </div>
      </SecretDialogContent>
    </Dialog>
  );
}
