import { rotateWebhookSecretSchema, WEBHOOKS, type WebhookEndpoint } from '@console/domain';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ErrorAlert } from '@/components/error-alert';
import { LabelledControl } from '@/components/labelled-control';
import { SecretDialogContent } from '@/components/secret-view';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Dialog, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { useRotateWebhookSecret } from '@/api/webhooks';
import { MESSAGES } from '../wording';

const w = MESSAGES.webhookPages;
const DEFAULT_GRACE = String(WEBHOOKS.defaultRotationGraceHours);

/** The grace period as typed, when it is one the server takes (a whole number of hours within the domain's bounds). */
function graceOf(text: string): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const parsed = rotateWebhookSecretSchema.safeParse({ grace_hours: Number(text) });
  return parsed.success ? parsed.data.grace_hours : null;
}

/**
 * Rotate secret: how many hours the old secret keeps signing beside the new one, then the new
 * secret shown once. While it is shown the dialog closes only through Done or its close button.
 */
export function RotateSecretDialog({ organizationId, endpoint }: { organizationId: string; endpoint: WebhookEndpoint }) {
  const [open, setOpen] = useState(false);
  const [grace, setGrace] = useState(DEFAULT_GRACE);
  const [invalid, setInvalid] = useState(false);
  const rotate = useRotateWebhookSecret(organizationId);
  const secret = rotate.data?.secret ?? null;
  const fieldId = `webhook-grace-${endpoint.id}`;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      // The secret leaves memory with the dialog.
      rotate.reset();
      setGrace(DEFAULT_GRACE);
      setInvalid(false);
    }
  }

  async function confirm() {
    const hours = graceOf(grace);
    setInvalid(hours === null);
    if (hours === null) return;
    try {
      await rotate.mutateAsync({ endpointId: endpoint.id, body: { grace_hours: hours } });
      toast.success(w.rotated);
    } catch {
      // The refusal is shown in the dialog.
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`${w.rotate} ${endpoint.url}`}>
          <RefreshCw aria-hidden />
          {w.rotate}
        </Button>
      </DialogTrigger>
      <SecretDialogContent secret={secret} wording={w} title={w.rotatedSecretTitle} onDone={() => onOpenChange(false)}>
        <form
          noValidate
          className="grid min-w-0 gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            void confirm();
          }}
        >
          <DialogHeader>
            <DialogTitle>{w.rotateTitle}</DialogTitle>
            <DialogDescription>{w.rotateDescription}</DialogDescription>
          </DialogHeader>
          <p className="text-sm break-all">{endpoint.url}</p>
          <LabelledControl
            id={fieldId}
            label={w.graceHours}
            hint={w.graceHint(WEBHOOKS.maxRotationGraceHours)}
            error={invalid ? w.graceInvalid(WEBHOOKS.maxRotationGraceHours) : undefined}
          >
            {(aria) => (
              <Input
                id={fieldId}
                type="number"
                inputMode="numeric"
                min={0}
                max={WEBHOOKS.maxRotationGraceHours}
                step={1}
                className="w-32"
                value={grace}
                onChange={(event) => setGrace(event.target.value)}
                {...aria}
              />
            )}
          </LabelledControl>
          {rotate.isError && <ErrorAlert title={w.rotateFailed} message={rotate.error.message} />}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {w.cancel}
            </Button>
            <Button type="submit" disabled={rotate.isPending}>
              {rotate.isPending ? w.rotating : w.rotate}
            </Button>
          </DialogFooter>
        </form>
      </SecretDialogContent>
    </Dialog>
  );
}
