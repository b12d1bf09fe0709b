import { mayEditPerson, mayEndAccessOf, roleLabel } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Pencil } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { userQueries } from '@/api/users';
import { LoadingRows } from '@/components/loading-rows';
import { OrganizationTrail, useReadableOrganization } from '@/components/organization-trail';
import { QueryError } from '@/components/query-error';
import { UserStatusBadge } from '@/components/users/user-status-badge';
import { formatDateTime } from '@/lib/dates';
import { fullName } from '@/lib/format';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { usePerson } from '../use-person';
import { EndSessionsButton, ResetFactorsButton } from '../components/access-actions';
import { MESSAGES } from '../wording';

const t = MESSAGES.teamPages;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="wrap-anywhere">{children}</dd>
    </div>
  );
}

/** /users/:id. */
export default function UserDetailPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const user = useQuery({ ...userQueries.detail(id ?? ''), enabled: !!id });
  const viewer = useViewer();
  const { person } = usePerson(user.data);
  // The trail down to the person's organization: known at once for the viewer's own, read otherwise when the viewer may read it.
  const organization = useReadableOrganization(user.data?.organization_id, user.data?.organization);
  // Opened directly there is no page to go back to: go to the users list instead.
  const back = () => (location.key === 'default' ? navigate(PATHS.users) : navigate(-1));

  return (
    <section className="mx-auto max-w-3xl space-y-6">
      {user.isSuccess && <OrganizationTrail organization={organization} page={fullName(user.data) || user.data.email} />}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button variant="ghost" className="-ml-2" onClick={back}>
          <ArrowLeft aria-hidden />
          Back
        </Button>
        <div className="flex flex-wrap gap-2">
          {/* Signing a person out everywhere, and resetting their second factors: an admin of their organization or any above it, the server's one rule. */}
          {!!viewer && !!person && user.isSuccess && mayEndAccessOf(viewer, person) && (
            <>
              <EndSessionsButton userId={person.id} name={fullName(user.data) || user.data.email} />
              <ResetFactorsButton userId={person.id} name={fullName(user.data) || user.data.email} />
            </>
          )}
          {!!viewer && !!person && mayEditPerson(viewer, person) && (
            <Button asChild variant="outline">
              <Link to={`${PATHS.users}/${person.id}/edit`}>
                <Pencil aria-hidden />
                {t.editProfile}
              </Link>
            </Button>
          )}
        </div>
      </div>
      {user.isPending ? (
        <LoadingRows rows={['h-8 w-64', 'h-48 w-full']} />
      ) : user.isError ? (
        <QueryError error={user.error} title={MESSAGES.users.notFound} onRetry={user.refetch} />
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
              <Field label="Role">{roleLabel(user.data.role)}</Field>
              <Field label="Status">
                <UserStatusBadge status={user.data.status} />
              </Field>
              <Field label="Member since">{formatDateTime(user.data.created_at)}</Field>
              <Field label="Last login">{formatDateTime(user.data.last_login_at)}</Field>
              <Field label="Organization ID">
                <span className="font-mono text-sm">{user.data.organization_id}</span>{' '}
                <Link to={`${PATHS.orgs}/${user.data.organization_id}`} className="text-sm text-primary underline-offset-4 hover:underline">
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
