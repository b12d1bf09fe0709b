import { updateGlobalSettingsSchema, type GlobalSettings, type UpdateGlobalSettingsInput } from '@console/domain';
import { Globe } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { FormField } from '@/components/form-field';
import { LabelledControl } from '@/components/labelled-control';
import { Input } from '@/components/ui/input';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { IconCardTitle } from '@/components/icon-card-title';
import { useUpdateGlobalSettings } from '@/api/settings';
import { ApiError } from '@/lib/api';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';

const g = MESSAGES.globalSettings;

/** The form's fields: every link as typed, '' meaning unset. */
interface Form {
  documentation_url: string;
  billing_portal_url: string;
  channel1_name: string;
  channel1_url: string;
  channel2_name: string;
  channel2_url: string;
  /** The API key rate limit ceiling as typed. */
  api_key_rate_limit_ceiling: string;
  /** The step-up threshold in credits as typed. */
  step_up_threshold: string;
}
type Field = keyof Form;

function formOf(settings: GlobalSettings): Form {
  const [first, second] = settings.community_channels;
  return {
    documentation_url: settings.documentation_url ?? '',
    billing_portal_url: settings.billing_portal_url ?? '',
    channel1_name: first?.name ?? '',
    channel1_url: first?.url ?? '',
    channel2_name: second?.name ?? '',
    channel2_url: second?.url ?? '',
    api_key_rate_limit_ceiling: String(settings.api_key_rate_limit_ceiling),
    step_up_threshold: settings.step_up_threshold,
  };
}

/** A channel with neither a name nor a link is left out; one with either is sent whole and checked. */
function bodyOf(form: Form): UpdateGlobalSettingsInput {
  const link = (value: string) => (value.trim() === '' ? null : value.trim());
  const channels = ([1, 2] as const)
    .map((n) => ({ name: form[`channel${n}_name`], url: form[`channel${n}_url`] }))
    .filter((channel) => channel.name.trim() !== '' || channel.url.trim() !== '');
  return {
    documentation_url: link(form.documentation_url),
    billing_portal_url: link(form.billing_portal_url),
    community_channels: channels,
    // Anything but a whole number is sent as NaN, which the schema refuses with its message.
    api_key_rate_limit_ceiling: /^\d+$/.test(form.api_key_rate_limit_ceiling.trim()) ? Number(form.api_key_rate_limit_ceiling) : Number.NaN,
    // An exact decimal as typed: the schema checks it and keeps it a string.
    step_up_threshold: form.step_up_threshold.trim(),
  };
}

/** The form field a validation path (client or server) names: `community_channels.0.url` is channel1_url. */
function fieldOf(path: readonly PropertyKey[], form: Form): Field | null {
  const [head, index, part] = path.map(String);
  if (
    head === 'documentation_url' ||
    head === 'billing_portal_url' ||
    head === 'api_key_rate_limit_ceiling' ||
    head === 'step_up_threshold'
  )
    return head;
  if (head !== 'community_channels' || index === undefined || (part !== 'name' && part !== 'url')) return null;
  // Channels left empty are not sent: the n-th sent channel is the n-th filled one.
  const filled = ([1, 2] as const).filter((n) => form[`channel${n}_name`].trim() !== '' || form[`channel${n}_url`].trim() !== '');
  const n = filled[Number(index)];
  return n ? (`channel${n}_${part}` as Field) : null;
}

/**
 * House admins keep the links the Welcome and Settings pages show, the ceiling of an API key's
 * own rate limit, and the amount above which allocations and adjustments ask for a step-up.
 */
export function GlobalSettingsCard({ settings }: { settings: GlobalSettings }) {
  const [form, setForm] = useState<Form>(() => formOf(settings));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const save = useUpdateGlobalSettings();

  function submit(event: FormEvent) {
    event.preventDefault();
    const body = bodyOf(form);
    const parsed = updateGlobalSettingsSchema.safeParse(body);
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = fieldOf(issue.path, form);
        if (field && !found[field]) found[field] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(body, {
      onSuccess: (saved) => {
        setForm(formOf(saved));
        toast.success(g.saved);
      },
      onError: (error) => {
        if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
          const found: Partial<Record<Field, string>> = {};
          for (const [path, message] of Object.entries(error.fields)) {
            const field = fieldOf(path.split('.'), form);
            if (field) found[field] = message;
          }
          setErrors(found);
        }
        toast.error(g.saveFailed, { description: error.message });
      },
    });
  }

  const field = (name: Field, label: string, type: 'url' | 'text' = 'url') => (
    <FormField
      id={`global-${name}`}
      label={label}
      type={type}
      inputMode={type === 'url' ? 'url' : undefined}
      placeholder={type === 'url' ? 'https://' : undefined}
      value={form[name]}
      error={errors[name]}
      onChange={(event) => setForm((current) => ({ ...current, [name]: event.target.value }))}
    />
  );

  return (
    <Card className="gap-4" id="global-settings">
      <CardHeader>
        <IconCardTitle icon={Globe}>{g.title}</IconCardTitle>
        <CardDescription>
          {g.description}
          {settings.updated_at && <> {g.lastChanged(formatDateTime(settings.updated_at), settings.updated_by_name)}</>}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {/* noValidate: the domain's rules give the messages, the browser's would differ. */}
        <form noValidate onSubmit={submit} className="grid gap-4" aria-label={g.title}>
          {field('documentation_url', g.documentationUrl)}
          {field('billing_portal_url', g.billingPortalUrl)}
          <div className="grid gap-4 md:grid-cols-2">
            {field('channel1_name', g.channelName(1), 'text')}
            {field('channel1_url', g.channelUrl(1))}
            {field('channel2_name', g.channelName(2), 'text')}
            {field('channel2_url', g.channelUrl(2))}
          </div>
          <LabelledControl
            id="global-api_key_rate_limit_ceiling"
            label={g.rateLimitCeiling}
            hint={g.rateLimitCeilingHint}
            error={errors.api_key_rate_limit_ceiling}
          >
            {(aria) => (
              <Input
                id="global-api_key_rate_limit_ceiling"
                className="w-40"
                inputMode="numeric"
                autoComplete="off"
                value={form.api_key_rate_limit_ceiling}
                onChange={(event) => setForm((current) => ({ ...current, api_key_rate_limit_ceiling: event.target.value }))}
                {...aria}
              />
            )}
          </LabelledControl>
          <LabelledControl
            id="global-step_up_threshold"
            label={g.stepUpThreshold}
            hint={g.stepUpThresholdHint}
            error={errors.step_up_threshold}
          >
            {(aria) => (
              <Input
                id="global-step_up_threshold"
                className="w-40"
                inputMode="decimal"
                autoComplete="off"
                value={form.step_up_threshold}
                onChange={(event) => setForm((current) => ({ ...current, step_up_threshold: event.target.value }))}
                {...aria}
              />
            )}
          </LabelledControl>
          <Button type="submit" className="w-fit" disabled={save.isPending}>
            {save.isPending ? g.saving : g.save}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
