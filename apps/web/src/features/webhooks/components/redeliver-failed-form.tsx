import { redeliverFailedSchema } from '@console/domain';
import { format } from 'date-fns';
import { RotateCw } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { LabelledControl } from '@/components/labelled-control';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useRedeliverFailedWebhooks } from '@/api/webhooks';
import { MESSAGES } from '../wording';

const w = MESSAGES.webhookPages;

/** A moment as a datetime-local field shows it: the viewer's time zone, to the minute. */
const localInputOf = (date: Date) => format(date, "yyyy-MM-dd'T'HH:mm");

/** The moment a datetime-local value means (the viewer's time zone), as the contract takes it; null when it is none. */
function sinceOf(value: string): string | null {
  const date = new Date(value);
  if (value === '' || Number.isNaN(date.getTime())) return null;
  const since = date.toISOString();
  return redeliverFailedSchema.safeParse({ since }).success ? since : null;
}

/**
 * Redeliver failed since…: every failed delivery of the endpoint whose event came at or after the
 * chosen time (24 hours ago at first) is sent again; a toast says how many.
 */
export function RedeliverFailedForm({ organizationId, endpointId }: { organizationId: string; endpointId: string }) {
  const [value, setValue] = useState(() => localInputOf(new Date(Date.now() - 24 * 3_600_000)));
  const [invalid, setInvalid] = useState(false);
  const redeliver = useRedeliverFailedWebhooks(organizationId, endpointId);
  const id = `webhook-redeliver-since-${endpointId}`;

  async function submit() {
    const since = sinceOf(value);
    setInvalid(since === null);
    if (since === null) return;
    try {
      toast.success(w.redeliveredCount(await redeliver.mutateAsync(since)));
    } catch (error) {
      toast.error(w.redeliverSinceFailed, { description: error instanceof Error ? error.message : undefined });
    }
  }

  return (
    <form
      noValidate
      className="flex min-w-0 flex-col gap-3 sm:flex-row sm:items-start"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="min-w-0 sm:w-72">
        <LabelledControl id={id} label={w.redeliverSince} error={invalid ? w.sinceInvalid : undefined}>
          {(aria) => <Input id={id} type="datetime-local" value={value} onChange={(event) => setValue(event.target.value)} {...aria} />}
        </LabelledControl>
      </div>
      <Button type="submit" variant="outline" className="w-fit sm:mt-[1.375rem]" disabled={redeliver.isPending}>
        <RotateCw aria-hidden />
        {w.redeliverSinceButton}
      </Button>
    </form>
  );
}
