import { MESSAGES } from '@console/domain';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CenteredLayout } from '@/components/centered-layout';
import { PATHS } from '@/lib/paths';

/** /invitation and /auth/accept-invitation: the acceptance flow is not part of this version. */
export default function InvitationPage() {
  return (
    <CenteredLayout>
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h1>Invitation</h1>
          </CardTitle>
          <CardDescription>Accepting invitations is not available in this version yet.</CardDescription>
        </CardHeader>
        <CardContent>
          <Link to={PATHS.login} className="text-sm underline-offset-4 hover:underline">
            {MESSAGES.authPages.backToLogin}
          </Link>
        </CardContent>
      </Card>
    </CenteredLayout>
  );
}
