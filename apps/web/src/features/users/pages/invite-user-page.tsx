import { zodResolver } from '@hookform/resolvers/zod';
import {
  createInvitationSchema,
  grantableRoles,
  invitableRoles,
  mayInviteTo,
  mayManageInvitationsOf,
  mayManagePeopleOf,
  ORG_TYPE_LABELS,
  roleLabel,
  type CreateInvitationInput,
} from '@console/domain';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { FormField } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { useCreateInvitation } from '@/api/invitations';
import { PermissionDenied } from '@/components/permission-denied';
import { QueryError } from '@/components/query-error';
import { usersHref } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { fieldOf } from '@/lib/form';
import { ErrorAlert } from '@/components/error-alert';
import { useTargetOrganization } from '../use-target-organization';
import { useUnsavedChangesGuard } from '@/lib/use-unsaved-changes';
import { BackLink } from '@/components/back-link';
import { MESSAGES } from '../wording';

const t = MESSAGES.teamPages;

/** /users/create?organization_id&organization_name: Invite Team Member. */
export default function InviteUserPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const viewer = useViewer();
  const organizationId = searchParams.get('organization_id') || undefined;
  const target = useTargetOrganization(organizationId);
  const organization = target.organization;
  const name = searchParams.get('organization_name') || organization?.name || null;
  // Roles of the organization's type that the inviter may give (never above their own).
  const roles = viewer ? grantableRoles(viewer, invitableRoles(organization?.org_type)) : [];
  const create = useCreateInvitation();
  // The form is offered exactly when the server would take it; managers are told who handles what they send.
  const mayInvite = !!viewer && !!organization && mayInviteTo(viewer, organization);
  // One who may manage the people there but not invite is refused by the child's own choice.
  const refusedByChild = !mayInvite && !!viewer && !!organization && mayManagePeopleOf(viewer, organization);
  const mayManageSent = !!viewer && !!organization && mayManageInvitationsOf(viewer, organization);

  const form = useForm<CreateInvitationInput>({
    resolver: zodResolver(createInvitationSchema),
    defaultValues: { email: '', first_name: '', last_name: '', role: '' },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  useUnsavedChangesGuard(isDirty);
  const back = usersHref(organizationId);

  async function submit(values: CreateInvitationInput) {
    if (!organization) return;
    try {
      const invitation = await create.mutateAsync({ ...values, organization_id: organization.id });
      toast.success(t.invitationSent, { description: t.invitationSentTo(invitation.email) });
      // Opened on Pending, where the invitation just sent is listed.
      navigate(usersHref(organization.id, 'pending'), { replace: true });
    } catch (error) {
      toast.error(MESSAGES.invitations.inviteFailed, {
        description: error instanceof Error ? error.message : MESSAGES.generic.unknown,
      });
    }
  }

  return (
    <section className="mx-auto max-w-2xl space-y-6">
      <BackLink to={back} />
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h1>{t.inviteTeamMember}</h1>
          </CardTitle>
          {target.isPending ? (
            <Skeleton className="h-5 w-64" />
          ) : organization ? (
            <CardDescription>
              {t.addingUserTo(name ?? organization.id)}
              {organization.org_type && <> ({ORG_TYPE_LABELS[organization.org_type]})</>}
            </CardDescription>
          ) : null}
        </CardHeader>
        <CardContent>
          {target.error ? (
            <QueryError error={target.error} title={MESSAGES.organizations.failedToLoadDetails} onRetry={target.refetch} />
          ) : !target.isPending && !organization ? (
            <ErrorAlert title={MESSAGES.shell.errorTitle} message={MESSAGES.invitations.noOrganization} />
          ) : !target.isPending && !mayInvite ? (
            <PermissionDenied message={refusedByChild ? MESSAGES.invitations.parentInvitesDisabled : t.inviteNotAllowed} />
          ) : (
            <form noValidate className="space-y-4" onSubmit={(event) => void form.handleSubmit(submit)(event)}>
              <FormField id="invite-email" label="Email" type="email" autoComplete="off" required {...fieldOf(form, 'email')} />
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField id="invite-first-name" label="First name" required {...fieldOf(form, 'first_name')} />
                <FormField id="invite-last-name" label="Last name" required {...fieldOf(form, 'last_name')} />
              </div>
              <div className="grid gap-2">
                <Label htmlFor="invite-role">Role</Label>
                {roles.length === 0 && !target.isPending ? (
                  <p className="text-sm text-muted-foreground">{MESSAGES.users.noRolesAvailable}</p>
                ) : (
                  <NativeSelect
                    id="invite-role"
                    aria-invalid={errors.role ? true : undefined}
                    aria-describedby={errors.role ? 'invite-role-error' : undefined}
                    {...form.register('role')}
                  >
                    <option value="">Select a role</option>
                    {roles.map((role) => (
                      <option key={role} value={role}>
                        {roleLabel(role)}
                      </option>
                    ))}
                  </NativeSelect>
                )}
                {errors.role && (
                  <p id="invite-role-error" className="text-sm text-destructive">
                    {errors.role.message}
                  </p>
                )}
              </div>
              {!target.isPending && !mayManageSent && <p className="text-sm text-muted-foreground">{t.invitationsManagedByAdmins}</p>}
              <Button type="submit" className="w-full sm:w-auto" disabled={isSubmitting || roles.length === 0}>
                {isSubmitting ? 'Sending invitation…' : 'Send Invitation'}
              </Button>
            </form>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
