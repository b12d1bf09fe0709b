import { zodResolver } from '@hookform/resolvers/zod';
import {
  frozenStanding,
  mayChangeOrganizationStatus,
  mayEditOrganization,
  mayEditOrganizations,
  ORG_STATUSES,
  orgDescriptionSchema,
  orgNameSchema,
  type OrganizationDetail,
} from '@console/domain';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { z } from 'zod';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormField } from '@/components/form-field';
import { PageLoading } from '@/components/page-loading';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/native-select';
import { useQuery } from '@tanstack/react-query';
import { organizationQueries, useUpdateOrganization } from '@/api/organizations';
import { BackLink } from '@/components/back-link';
import { LabelledControl } from '@/components/labelled-control';
import { PermissionDenied } from '@/components/permission-denied';
import { QueryError } from '@/components/query-error';
import { useOrgBase } from '@/lib/org-base';
import { useViewer } from '@/lib/use-viewer';
import { applyServerErrors, fieldOf } from '@/lib/form';
import { ErrorAlert } from '@/components/error-alert';
import { DescriptionField, FormActions, ParentInvitesSwitch } from '../components/organization-fields';
import { ORG_STATUS_LABELS } from '../components/org-status-badge';
import { useUnsavedChangesGuard } from '@/lib/use-unsaved-changes';
import { MESSAGES } from '../wording';

const m = MESSAGES.organizations;

/**
 * Every field the form shows is sent, and the server keeps the same rules. The status is
 * shown only to the admins of the parent organization, the only people who may change it.
 */
const formSchema = z.object({
  name: orgNameSchema,
  description: orgDescriptionSchema,
  status: z.enum(ORG_STATUSES, { error: m.selectStatus }),
  disable_parent_invites: z.boolean(),
});
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;
const FIELDS = ['name', 'description', 'status', 'disable_parent_invites'] as const;

/** {base}/:id/edit: the user's own organization or a direct child only. */
export default function EditOrganizationPage() {
  const base = useOrgBase();
  const { id } = useParams<{ id: string }>();
  const viewer = useViewer();
  const organization = useQuery({ ...organizationQueries.detail(id ?? ''), enabled: !!id });
  const frozen = viewer ? frozenStanding(viewer) : null;

  let content;
  if (organization.isPending) content = <PageLoading />;
  else if (organization.isError)
    content = <QueryError error={organization.error} title={m.failedToLoadDetails} onRetry={organization.refetch} />;
  else if (!viewer || !mayEditOrganizations(viewer))
    content = <PermissionDenied title="Edit Organization" message={MESSAGES.generic.forbidden} />;
  else if (frozen) content = <PermissionDenied title="Edit Organization" message={m.frozen(frozen.status, frozen.where)} />;
  else if (!viewer || !mayEditOrganization(viewer, organization.data))
    content = <PermissionDenied title="Edit Organization" message={m.onlyOwnOrDirectChild} />;
  else
    content = (
      <EditOrganizationForm
        base={base}
        organization={organization.data}
        withStatus={mayChangeOrganizationStatus(viewer, organization.data)}
      />
    );

  return (
    <section className="mx-auto max-w-2xl space-y-4">
      <BackLink to={`${base}/${id}`} />
      {content}
    </section>
  );
}

function EditOrganizationForm({ base, organization, withStatus }: { base: string; organization: OrganizationDetail; withStatus: boolean }) {
  const navigate = useNavigate();
  const update = useUpdateOrganization(organization.id);
  const [failure, setFailure] = useState<string | null>(null);
  // Values waiting for the confirmation that suspends or deactivates the organization.
  const [freezing, setFreezing] = useState<(FormOutput & { status: 'suspended' | 'inactive' }) | null>(null);
  const detailPath = `${base}/${organization.id}`;

  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(formSchema),
    defaultValues: {
      name: organization.name,
      description: organization.description ?? '',
      status: organization.status,
      disable_parent_invites: organization.disable_parent_invites,
    },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  useUnsavedChangesGuard(isDirty);

  /** A change of status to suspended or inactive is confirmed first; anything else is saved at once. */
  function submit(values: FormOutput) {
    const { status } = values;
    if (withStatus && status !== organization.status && status !== 'active') {
      setFreezing({ ...values, status });
      return;
    }
    return save(values);
  }

  async function save(values: FormOutput) {
    setFailure(null);
    try {
      const { status, ...rest } = values;
      await update.mutateAsync({ ...rest, description: values.description || null, ...(withStatus && { status }) });
      toast.success('Organization updated', { description: values.name });
      // The saved page takes the form's place: Back does not reopen a form already saved.
      navigate(detailPath, { replace: true });
    } catch (error) {
      const message = applyServerErrors(error, FIELDS, form.setError);
      setFailure(message);
      toast.error(MESSAGES.shell.errorTitle, { description: `Failed to update organization: ${message}` });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h1 className="text-2xl">Edit Organization</h1>
        </CardTitle>
        <CardDescription>{organization.name}</CardDescription>
      </CardHeader>
      <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)} className="contents">
        <CardContent className="space-y-4">
          {failure && <ErrorAlert title="Failed to update organization" message={failure} />}
          <FormField id="org-name" label="Name" autoComplete="off" {...fieldOf(form, 'name')} />
          <DescriptionField error={errors.description?.message} {...form.register('description')} />
          {withStatus && (
            <LabelledControl id="org-status" label="Status" error={errors.status?.message}>
              {(aria) => (
                <NativeSelect id="org-status" {...aria} {...form.register('status')}>
                  {ORG_STATUSES.map((status) => (
                    <option key={status} value={status}>
                      {ORG_STATUS_LABELS[status]}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </LabelledControl>
          )}
          <ParentInvitesSwitch
            control={form.control}
            description="When on, administrators of the parent organization cannot invite users into this organization."
          />
        </CardContent>
        {freezing && (
          <ConfirmDialog
            open
            onOpenChange={(open) => !open && setFreezing(null)}
            title={m.freezeTitle(freezing.status)}
            description={m.freezeConfirm(organization.name, freezing.status)}
            confirmLabel={m.freezeAction(freezing.status)}
            destructive
            onConfirm={() => void save(freezing)}
          />
        )}
        <FormActions cancelTo={detailPath} submitting={isSubmitting} label="Save Changes" busyLabel="Saving…" />
      </form>
    </Card>
  );
}
