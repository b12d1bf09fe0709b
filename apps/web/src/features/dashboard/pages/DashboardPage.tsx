import { MESSAGES, ORG_TYPE_LABELS } from '@console/domain';
import { AlertCircle } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useMe } from '@/features/users/api/get-me';

export default function DashboardPage() {
  const me = useMe();

  if (me.isPending) {
    return (
      <div role="status" className="space-y-4">
        <span className="sr-only">Loading</span>
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-32 w-full" />
      </div>
    );
  }
  if (me.isError) {
    return (
      <Alert variant="destructive">
        <AlertCircle aria-hidden />
        <AlertTitle>{MESSAGES.shell.errorTitle}</AlertTitle>
        <AlertDescription>{me.error.message}</AlertDescription>
      </Alert>
    );
  }

  const { organization } = me.data;
  if (!organization) {
    return <p className="text-muted-foreground">{MESSAGES.organizations.selectOrganization}</p>;
  }
  return (
    <section className="space-y-6">
      <header className="space-y-1">
        <p className="text-sm text-muted-foreground">{MESSAGES.shell.nav.dashboard}</p>
        <h1 className="text-3xl font-bold tracking-tight">{organization.name}</h1>
      </header>
      <Card>
        <CardHeader>
          <CardTitle>Organization</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-muted-foreground">Type</dt>
            <dd>{ORG_TYPE_LABELS[organization.org_type]}</dd>
            <dt className="text-muted-foreground">Status</dt>
            <dd className="capitalize">{organization.status}</dd>
          </dl>
        </CardContent>
      </Card>
      <p className="text-sm text-muted-foreground">
        Dashboard figures are not available in this version yet.
      </p>
    </section>
  );
}
