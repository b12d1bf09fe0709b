import { zodResolver } from '@hookform/resolvers/zod';
import {
  LIMITS,
  changePasswordFormSchema,
  updatePasswordFormSchema,
  type ChangePasswordForm,
  type UpdatePasswordForm,
} from '@console/domain';
import { useState } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiError } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/paths';
import { useUpdatePassword } from '@/api/auth';
import { CenteredLayout } from '@/components/centered-layout';
import { FormField } from '@/components/form-field';
import { PageLoading } from '@/components/page-loading';
import { ErrorAlert } from '@/components/error-alert';
import { recoveryToken } from '../recovery-link';
import { MESSAGES } from '../wording';

/**
 * With a reset link's token anyone sets a new password; without one, a signed-in person
 * changes theirs by giving the current password too.
 */
export default function UpdatePasswordPage() {
  const location = useLocation();
  const { status } = useAuth();
  const [token] = useState(() => recoveryToken(location.hash));
  if (token)
    return (
      <CenteredLayout>
        <UpdatePasswordCard token={token} />
      </CenteredLayout>
    );
  if (status === 'loading') return <PageLoading className="min-h-screen" />;
  return <CenteredLayout>{status === 'signed-in' ? <ChangePasswordCard /> : <InvalidLinkCard />}</CenteredLayout>;
}

function InvalidLinkCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h1>{MESSAGES.authPages.invalidLinkTitle}</h1>
        </CardTitle>
        <CardDescription>{MESSAGES.auth.invalidResetLink}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild className="w-full">
          <Link to={PATHS.resetPassword}>{MESSAGES.authPages.requestNewResetLink}</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

type NewPasswordField = UseFormRegisterReturn & { error?: string };

const NEW_PASSWORD = { type: 'password', autoComplete: 'new-password', minLength: LIMITS.passwordMin, required: true } as const;

/** The new password and its confirmation, under the same rules on both cards. */
function NewPasswordFields({ password, confirm }: { password: NewPasswordField; confirm: NewPasswordField }) {
  return (
    <>
      <FormField id="password" label={MESSAGES.authPages.newPassword} {...NEW_PASSWORD} {...password} />
      <FormField id="confirm" label={MESSAGES.authPages.confirmPassword} {...NEW_PASSWORD} {...confirm} />
    </>
  );
}

function UpdatePasswordCard({ token }: { token: string }) {
  const { clearSession } = useAuth();
  const navigate = useNavigate();
  const update = useUpdatePassword();
  const form = useForm<UpdatePasswordForm>({
    resolver: zodResolver(updatePasswordFormSchema),
    defaultValues: { password: '', confirm: '' },
  });
  const { errors } = form.formState;

  function submit({ password }: UpdatePasswordForm) {
    update.mutate(
      { password, token },
      {
        onSuccess: () => {
          toast.success(MESSAGES.auth.passwordUpdatedTitle, {
            description: MESSAGES.auth.passwordUpdated,
          });
          // After a new password the user signs in again.
          clearSession();
          navigate(PATHS.login, { replace: true });
        },
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h1>Update password</h1>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <form noValidate className="space-y-4" onSubmit={form.handleSubmit(submit)}>
          {update.error && <ErrorAlert title={MESSAGES.shell.errorTitle} message={update.error.message} />}
          <NewPasswordFields
            password={{ ...form.register('password'), error: errors.password?.message }}
            confirm={{ ...form.register('confirm'), error: errors.confirm?.message }}
          />
          <Button type="submit" className="w-full" disabled={update.isPending}>
            Update password
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

/** A signed-in change: this session stays, the person's other sessions end on the server. */
function ChangePasswordCard() {
  const navigate = useNavigate();
  const update = useUpdatePassword();
  const form = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { current_password: '', password: '', confirm: '' },
  });
  const { errors } = form.formState;
  // A refusal about one field (a wrong current password) is shown under that field.
  const serverFields = update.error instanceof ApiError ? update.error.fields : {};
  const fieldRefusal = Object.keys(serverFields).length > 0;

  function submit({ current_password, password }: ChangePasswordForm) {
    update.mutate(
      { current_password, password },
      {
        onSuccess: () => {
          toast.success(MESSAGES.auth.passwordUpdatedTitle);
          navigate(PATHS.dashboard, { replace: true });
        },
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h1>{MESSAGES.authPages.changePassword}</h1>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <form noValidate className="space-y-4" onSubmit={form.handleSubmit(submit)}>
          {update.error && !fieldRefusal && <ErrorAlert title={MESSAGES.shell.errorTitle} message={update.error.message} />}
          <FormField
            id="current_password"
            label={MESSAGES.authPages.currentPassword}
            type="password"
            autoComplete="current-password"
            required
            error={errors.current_password?.message ?? serverFields.current_password}
            {...form.register('current_password')}
          />
          <NewPasswordFields
            password={{ ...form.register('password'), error: errors.password?.message ?? serverFields.password }}
            confirm={{ ...form.register('confirm'), error: errors.confirm?.message }}
          />
          <Button type="submit" className="w-full" disabled={update.isPending}>
            {MESSAGES.authPages.changePassword}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
