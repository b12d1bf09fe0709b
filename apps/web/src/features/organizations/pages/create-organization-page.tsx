import { zodResolver } from '@hookform/resolvers/zod';
import {
  amountInputSchema,
  childTypeOf,
  mayAllocateFrom,
  mayCreateChildOrganization,
  createOrganizationSchema,
  CREDITS,
  ORG_TYPE_LABELS,
  type CreateOrganizationInput,
  type OrgType,
} from '@console/domain';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { z } from 'zod';
import { FormField } from '@/components/form-field';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { useQuery } from '@tanstack/react-query';
import { organizationQueries, useCreateOrganization } from '@/api/organizations';
import { BackLink } from '@/components/back-link';
import { LabelledControl } from '@/components/labelled-control';
import { PermissionDenied } from '@/components/permission-denied';
import { useAuth } from '@/lib/auth';
import { formatCredits } from '@/lib/credit-format';
import { useOrgBase } from '@/lib/org-base';
import { useViewer } from '@/lib/use-viewer';
import { applyServerErrors, fieldOf } from '@/lib/form';
import { ErrorAlert } from '@/components/error-alert';
import { DescriptionField, FormActions, ParentInvitesSwitch } from '../components/organization-fields';
import { useUnsavedChangesGuard } from '@/lib/use-unsaved-changes';
import { MESSAGES } from '../wording';

/** The API's create schema, with an empty initial balance meaning none. */
const formSchema = createOrganizationSchema.extend({
  initial_balance: z.preprocess((value) => (value === '' ? undefined : value), amountInputSchema.optional()),
});
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;
const FIELDS = ['name', 'description', 'org_type', 'disable_parent_invites', 'initial_balance'] as const;

/** {base}/create: a direct child of the user's organization, of the one type below it. */
export default function CreateOrganizationPage() {
  const base = useOrgBase();
  const viewer = useViewer();
  const ownType = viewer?.organization.org_type ?? null;
  const childType = ownType ? childTypeOf(ownType) : null;

  let content;
  if (!childType) {
    content = <PermissionDenied title="Create Organization" message={MESSAGES.organizations.cannotCreateChildren(ownType ?? 'unknown')} />;
  } else if (!viewer || !mayCreateChildOrganization(viewer)) {
    content = (
      <PermissionDenied
        title="Create Organization"
        message="Your role cannot create organizations. Ask an administrator of your organization."
      />
    );
  } else {
    content = <CreateOrganizationForm base={base} childType={childType} />;
  }
  return (
    <section className="mx-auto max-w-2xl space-y-4">
      <BackLink to={base} />
      {content}
    </section>
  );
}

function CreateOrganizationForm({ base, childType }: { base: string; childType: OrgType }) {
  const { claims } = useAuth();
  const viewer = useViewer();
  const navigate = useNavigate();
  const create = useCreateOrganization();
  const [failure, setFailure] = useState<string | null>(null);
  // The initial balance is moved from the own organization, so it is offered to those who may allocate from it.
  const canAllocate = !!viewer && mayAllocateFrom(viewer, viewer.organization);
  // The parent's balance, shown beside the initial balance it would come from.
  const own = useQuery({ ...organizationQueries.detail(viewer?.organization.id ?? ''), enabled: canAllocate });
  const parentName = claims?.organization_name ?? 'your organization';

  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(formSchema),
    defaultValues: { name: '', description: '', org_type: childType, disable_parent_invites: false, initial_balance: '' },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  useUnsavedChangesGuard(isDirty);

  async function submit(values: FormOutput) {
    setFailure(null);
    const input: CreateOrganizationInput = {
      name: values.name,
      org_type: values.org_type,
      disable_parent_invites: values.disable_parent_invites,
      ...(values.description && { description: values.description }),
      ...(canAllocate && values.initial_balance && { initial_balance: values.initial_balance }),
    };
    try {
      const organization = await create.mutateAsync(input);
      toast.success('Organization created', { description: organization.name });
      // The new organization's page takes the form's place: Back leads to where the person was before it.
      navigate(`${base}/${organization.id}`, { replace: true });
    } catch (error) {
      const message = applyServerErrors(error, FIELDS, form.setError);
      setFailure(message);
      toast.error(MESSAGES.organizations.failedToCreate, { description: message });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h1 className="text-2xl">Create Organization</h1>
        </CardTitle>
        <CardDescription>
          A new {ORG_TYPE_LABELS[childType].toLowerCase()} under {parentName}.
        </CardDescription>
      </CardHeader>
      <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)} className="contents">
        <CardContent className="space-y-4">
          {failure && <ErrorAlert title={MESSAGES.organizations.failedToCreate} message={failure} />}
          <FormField id="org-name" label="Name" autoComplete="off" {...fieldOf(form, 'name')} />
          <DescriptionField error={errors.description?.message} {...form.register('description')} />
          <LabelledControl
            id="org-type"
            label="Type"
            hint={`An organization can only create organizations of the next type down: ${ORG_TYPE_LABELS[childType]}.`}
            error={errors.org_type?.message}
          >
            {(aria) => (
              <NativeSelect id="org-type" {...aria} {...form.register('org_type')}>
                <option value={childType}>{ORG_TYPE_LABELS[childType]}</option>
              </NativeSelect>
            )}
          </LabelledControl>
          <ParentInvitesSwitch
            control={form.control}
            description={`When on, administrators of ${parentName} cannot invite users into the new organization.`}
          />
          {canAllocate && (
            <LabelledControl
              id="org-initial-balance"
              label="Initial balance (optional)"
              hint={`Credits moved from ${parentName}${own.data ? ` (balance ${formatCredits(own.data.credit_balance)})` : ''} to the new organization.`}
              error={errors.initial_balance?.message}
            >
              {(aria) => (
                <Input
                  id="org-initial-balance"
                  type="number"
                  inputMode="decimal"
                  min={CREDITS.minAmount}
                  step={CREDITS.step}
                  placeholder="0.00"
                  {...aria}
                  {...form.register('initial_balance')}
                />
              )}
            </LabelledControl>
          )}
        </CardContent>
        <FormActions cancelTo={base} submitting={isSubmitting} label="Create" busyLabel="Creating…" />
      </form>
    </Card>
  );
}
