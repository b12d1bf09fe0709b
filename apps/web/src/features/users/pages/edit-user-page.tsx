import { zodResolver } from '@hookform/resolvers/zod';
import {
  frozenStanding,
  grantableRoles,
  mayChangePersonStatus,
  mayEditPerson,
  mayChangeRoleOf,
  roleLabel,
  rolesForOrgType,
  updateMeSchema,
  type Actor,
  type PersonFacts,
  type UpdateUserInput,
  type UserProfile,
} from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { z } from 'zod';
import { FormField } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { useUpdateMe, useUpdateUser, useUpdateUserRole, userQueries } from '@/api/users';
import { LoadingRows } from '@/components/loading-rows';
import { PermissionDenied } from '@/components/permission-denied';
import { QueryError } from '@/components/query-error';
import { fullName } from '@/lib/format';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { fieldOf } from '@/lib/form';
import { ErrorAlert } from '@/components/error-alert';
import { usePerson } from '../use-person';
import { useUnsavedChangesGuard } from '@/lib/use-unsaved-changes';
import { BackLink } from '@/components/back-link';
import { MESSAGES } from '../wording';

const t = MESSAGES.teamPages;
const { first_name, last_name, preferred_locale } = updateMeSchema.shape;

/** Empty names stay as they are (a name cannot be cleared, only replaced). */
const editUserFormSchema = z.object({
  first_name: z.literal('').or(first_name.unwrap()),
  last_name: z.literal('').or(last_name.unwrap()),
  preferred_locale: preferred_locale.unwrap(),
  status: z.string(),
  role: z.string(),
});
type EditUserForm = z.infer<typeof editUserFormSchema>;

/** /users/:id/edit. */
export default function EditUserPage() {
  const { id } = useParams();
  const user = useQuery({ ...userQueries.detail(id ?? ''), enabled: !!id });
  const viewer = useViewer();
  const { person, isPending } = usePerson(user.data);

  return (
    <section className="mx-auto max-w-2xl space-y-6">
      <BackLink to={`${PATHS.users}/${id}`} />
      {user.isError ? (
        <QueryError error={user.error} title={MESSAGES.users.notFound} onRetry={user.refetch} />
      ) : user.isPending || isPending || !person ? (
        <LoadingRows rows={['h-8 w-64', 'h-64 w-full']} />
      ) : !viewer || !mayEditPerson(viewer, person) ? (
        // The form is offered exactly where the Edit links are, as the server would refuse its save.
        <PermissionDenied title="Edit User" message={editRefusal(viewer)} />
      ) : (
        <EditUserForm user={user.data} person={person} viewer={viewer} />
      )}
    </section>
  );
}

/** Why the form is not offered: a frozen organization changes nothing; otherwise the rule of who edits whom. */
function editRefusal(viewer: Actor | null): string {
  const frozen = viewer ? frozenStanding(viewer) : null;
  return frozen ? MESSAGES.organizations.frozen(frozen.status, frozen.where) : t.editNotAllowed;
}

function EditUserForm({ user, person, viewer }: { user: UserProfile; person: PersonFacts; viewer: Actor | null }) {
  const navigate = useNavigate();
  const self = !!viewer && user.id === viewer.userId;
  // Status and role are changed for others only, within reach; the server decides the same way.
  const mayChangeStatus = !!viewer && mayChangePersonStatus(viewer, person);
  const mayChangeRole = !!viewer && mayChangeRoleOf(viewer, person);
  const roles = viewer ? grantableRoles(viewer, rolesForOrgType(user.organization.org_type)) : [];
  const updateMe = useUpdateMe();
  const updateUser = useUpdateUser();
  const updateRole = useUpdateUserRole();
  const [failure, setFailure] = useState<string | null>(null);

  const form = useForm<EditUserForm>({
    resolver: zodResolver(editUserFormSchema),
    defaultValues: {
      first_name: user.first_name ?? '',
      last_name: user.last_name ?? '',
      preferred_locale: user.preferred_locale,
      status: user.status,
      role: user.role,
    },
  });
  const { isSubmitting, isDirty } = form.formState;
  useUnsavedChangesGuard(isDirty);

  async function submit(values: EditUserForm) {
    setFailure(null);
    const profile = {
      first_name: values.first_name || undefined,
      last_name: values.last_name || undefined,
      preferred_locale: values.preferred_locale,
    };
    let step: 'profile' | 'role' = 'profile';
    try {
      if (self) {
        await updateMe.mutateAsync(profile);
      } else {
        const body: UpdateUserInput = { ...profile };
        if (mayChangeStatus && values.status !== user.status && (values.status === 'active' || values.status === 'inactive')) {
          body.status = values.status;
        }
        await updateUser.mutateAsync({ id: user.id, body });
        if (mayChangeRole && values.role !== user.role) {
          step = 'role';
          await updateRole.mutateAsync({ id: user.id, role: values.role });
        }
      }
      toast.success(t.userUpdated);
      // The saved page takes the form's place: Back does not reopen a form already saved.
      navigate(`${PATHS.users}/${user.id}`, { replace: true });
    } catch (error) {
      // The server's own reason, e.g. the last active administrator.
      const message = error instanceof Error ? error.message : MESSAGES.generic.unknown;
      setFailure(message);
      toast.error(step === 'role' ? t.roleUpdateFailed : t.updateFailed, { description: message });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h1>Edit User</h1>
        </CardTitle>
        <CardDescription>
          {fullName(user) || user.email} · {user.email}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate className="space-y-4" onSubmit={(event) => void form.handleSubmit(submit)(event)}>
          {failure && <ErrorAlert title={MESSAGES.shell.errorTitle} message={failure} />}
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="edit-first-name" label="First name" {...fieldOf(form, 'first_name')} />
            <FormField id="edit-last-name" label="Last name" {...fieldOf(form, 'last_name')} />
          </div>
          <FormField id="edit-locale" label="Preferred locale" {...fieldOf(form, 'preferred_locale')} />
          {mayChangeStatus && (
            <div className="grid gap-2">
              <Label htmlFor="edit-status">Status</Label>
              <NativeSelect id="edit-status" {...form.register('status')}>
                {user.status !== 'active' && user.status !== 'inactive' && (
                  <option value={user.status}>{user.status.charAt(0).toUpperCase() + user.status.slice(1)}</option>
                )}
                <option value="active">Active</option>
                <option value="inactive">Inactive</option>
              </NativeSelect>
            </div>
          )}
          {mayChangeRole && (
            <div className="grid gap-2">
              <Label htmlFor="edit-role">Role</Label>
              <NativeSelect id="edit-role" {...form.register('role')}>
                {!(roles as string[]).includes(user.role) && <option value={user.role}>{roleLabel(user.role)}</option>}
                {roles.map((role) => (
                  <option key={role} value={role}>
                    {roleLabel(role)}
                  </option>
                ))}
              </NativeSelect>
            </div>
          )}
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Saving…' : 'Save changes'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
