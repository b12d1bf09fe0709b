import { zodResolver } from '@hookform/resolvers/zod';
import {
  can,
  MESSAGES,
  roleLabel,
  rolesForOrgType,
  updateMeSchema,
  type UpdateUserInput,
  type UserProfile,
} from '@console/domain';
import { AlertCircle, ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { z } from 'zod';
import { FormField } from '@/components/form-field';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/paths';
import { useUser } from '../api/get-user';
import { useUpdateMe } from '../api/update-me';
import { useUpdateUser } from '../api/update-user';
import { useUpdateUserRole } from '../api/update-user-role';
import { LoadError } from '../components/LoadError';
import { fullName, rolesUpTo } from '../format';

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
  const navigate = useNavigate();
  const user = useUser(id);

  return (
    <section className="mx-auto max-w-2xl space-y-6">
      <Button variant="ghost" className="-ml-2" onClick={() => navigate(`${PATHS.users}/${id}`)}>
        <ArrowLeft aria-hidden />
        Back
      </Button>
      {user.isPending ? (
        <div role="status" className="space-y-4">
          <span className="sr-only">Loading</span>
          <Skeleton className="h-8 w-64" />
          <Skeleton className="h-64 w-full" />
        </div>
      ) : user.isError ? (
        <LoadError error={user.error} title={MESSAGES.users.notFound} />
      ) : (
        <EditUserForm user={user.data} />
      )}
    </section>
  );
}

function EditUserForm({ user }: { user: UserProfile }) {
  const { claims } = useAuth();
  const navigate = useNavigate();
  const self = user.id === claims?.user_id;
  const admin = can(claims?.role, 'invitations.manage');
  // Status and role are set by admins for others only; the server refuses the rest.
  const mayChangeStatus = admin && !self;
  const mayChangeRole = admin && !self && can(claims?.role, 'users.update_role');
  const roles = rolesUpTo(rolesForOrgType(user.organization.org_type), claims?.role);
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
  const { errors, isSubmitting } = form.formState;

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
      navigate(`${PATHS.users}/${user.id}`);
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
          {failure && (
            <Alert variant="destructive">
              <AlertCircle aria-hidden />
              <AlertTitle>{MESSAGES.shell.errorTitle}</AlertTitle>
              <AlertDescription>{failure}</AlertDescription>
            </Alert>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="edit-first-name" label="First name" error={errors.first_name?.message} {...form.register('first_name')} />
            <FormField id="edit-last-name" label="Last name" error={errors.last_name?.message} {...form.register('last_name')} />
          </div>
          <FormField
            id="edit-locale"
            label="Preferred locale"
            error={errors.preferred_locale?.message}
            {...form.register('preferred_locale')}
          />
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
