import { zodResolver } from '@hookform/resolvers/zod';
import { recoverBodySchema, type RecoverBody } from '@console/domain';
import { MailCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { PATHS } from '@/lib/paths';
import { useRecover } from '@/api/auth';
import { CenteredLayout } from '@/components/centered-layout';
import { FormField } from '@/components/form-field';
import { MESSAGES } from '../wording';
import { ErrorAlert } from '@/components/error-alert';

export default function ResetPasswordPage() {
  const recover = useRecover();
  const form = useForm<RecoverBody>({
    resolver: zodResolver(recoverBodySchema),
    defaultValues: { email: '' },
  });

  function submit(values: RecoverBody) {
    recover.mutate(values, {
      onSuccess: () => toast.success(MESSAGES.auth.resetSentTitle, { description: MESSAGES.auth.resetSent }),
    });
  }

  return (
    <CenteredLayout>
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h1>Reset password</h1>
          </CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          {recover.isSuccess ? (
            <Alert>
              <MailCheck aria-hidden />
              <AlertTitle>{MESSAGES.auth.resetSentTitle}</AlertTitle>
              <AlertDescription>{MESSAGES.auth.resetSent}</AlertDescription>
            </Alert>
          ) : (
            <form noValidate className="space-y-4" onSubmit={form.handleSubmit(submit)}>
              {recover.error && <ErrorAlert title={MESSAGES.shell.errorTitle} message={recover.error.message} />}
              <FormField
                id="email"
                label="Email"
                type="email"
                autoComplete="email"
                required
                error={form.formState.errors.email?.message}
                {...form.register('email')}
              />
              <Button type="submit" className="w-full" disabled={recover.isPending}>
                {MESSAGES.authPages.sendResetLink}
              </Button>
            </form>
          )}
        </CardContent>
        <CardFooter>
          <Link to={PATHS.login} className="text-sm underline-offset-4 hover:underline">
            {MESSAGES.authPages.backToLogin}
          </Link>
        </CardFooter>
      </Card>
    </CenteredLayout>
  );
}
