import { zodResolver } from '@hookform/resolvers/zod';
import {
  LIMITS,
  MESSAGES,
  updatePasswordFormSchema,
  type UpdatePasswordForm,
} from '@console/domain';
import { AlertCircle } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/paths';
import { useUpdatePassword } from '@/api/auth';
import { CenteredLayout } from '@/components/centered-layout';
import { FormField } from '@/components/form-field';
import { recoveryToken } from '../recovery-link';

export default function UpdatePasswordPage() {
  const location = useLocation();
  const [token] = useState(() => recoveryToken(location.hash));
  return <CenteredLayout>{token ? <UpdatePasswordCard token={token} /> : <InvalidLinkCard />}</CenteredLayout>;
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
          {update.error && (
            <Alert variant="destructive">
              <AlertCircle aria-hidden />
              <AlertTitle>{MESSAGES.shell.errorTitle}</AlertTitle>
              <AlertDescription>{update.error.message}</AlertDescription>
            </Alert>
          )}
          <FormField
            id="password"
            label={MESSAGES.authPages.newPassword}
            type="password"
            autoComplete="new-password"
            minLength={LIMITS.passwordMin}
            required
            error={errors.password?.message}
            {...form.register('password')}
          />
          <FormField
            id="confirm"
            label={MESSAGES.authPages.confirmPassword}
            type="password"
            autoComplete="new-password"
            minLength={LIMITS.passwordMin}
            required
            error={errors.confirm?.message}
            {...form.register('confirm')}
          />
          <Button type="submit" className="w-full" disabled={update.isPending}>
            Update password
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
