import { MESSAGES, roleLabel } from '@console/domain';
import { ArrowLeft, Pencil } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { PATHS } from '@/lib/paths';
import { useUser } from '../api/get-user';
import { LoadError } from '../components/LoadError';
import { UserStatusBadge } from '../components/UserStatusBadge';
import { formatDateTime, fullName } from '../format';

const t = MESSAGES.teamPages;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

/** /users/:id. */
export default function UserDetailPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const user = useUser(id);
  // Opened directly there is no page to go back to: go to the users list instead.
  const back = () => (location.key === 'default' ? navigate(PATHS.users) : navigate(-1));

  return (
    <section className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button variant="ghost" className="-ml-2" onClick={back}>
          <ArrowLeft aria-hidden />
          Back
        </Button>
        {user.data && (
          <Button asChild variant="outline">
            <Link to={`${PATHS.users}/${user.data.id}/edit`}>
              <Pencil aria-hidden />
              {t.editProfile}
            </Link>
          </Button>
        )}
      </div>
      {user.isPending ? (
        <div role="status" className="space-y-4">
          <span className="sr-only">Loading</span>
          <Skeleton className="h-8 w-64" />
          <Skeleton className="h-48 w-full" />
        </div>
      ) : user.isError ? (
        <LoadError error={user.error} title={MESSAGES.users.notFound} />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h1 className="text-2xl">{fullName(user.data) || user.data.email}</h1>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-4 sm:grid-cols-2">
              <Field label="First name">{user.data.first_name ?? ''}</Field>
              <Field label="Last name">{user.data.last_name ?? ''}</Field>
              <Field label="Email">{user.data.email}</Field>
              <Field label="Role">
                <span className="capitalize">{roleLabel(user.data.role)}</span>
              </Field>
              <Field label="Status">
                <UserStatusBadge status={user.data.status} />
              </Field>
              <Field label="Member since">{formatDateTime(user.data.created_at)}</Field>
              <Field label="Last login">{formatDateTime(user.data.last_login_at)}</Field>
              <Field label="Organization ID">
                <span className="font-mono text-sm">{user.data.organization_id}</span>{' '}
                <Link
                  to={`${PATHS.orgs}/${user.data.organization_id}`}
                  className="text-sm text-primary underline-offset-4 hover:underline"
                >
                  {t.viewOrganization}
                </Link>
              </Field>
            </dl>
          </CardContent>
        </Card>
      )}
    </section>
  );
}
