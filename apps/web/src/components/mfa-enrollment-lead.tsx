import { isMfaEnrollmentOverdue, mfaDaysLeft } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { accountQueries } from '@/api/account';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { formatDate } from '@/lib/dates';
import { PATHS } from '@/lib/paths';
import { MESSAGES } from '@/lib/wording';

const w = MESSAGES.mfaPolicy;
/** A reminder put off lasts for this tab's session; it comes back at the next sign-in, until the deadline. */
const LATER_KEY = 'mfa-enrollment-later';

/**
 * Leads a person whom the second-factor policy covers, and who has no factor yet, to set one
 * up: within the grace a reminder with the days left (put off until the next sign-in); past
 * it, every page but Security sends them there, as the server refuses everything else. Once
 * the Security page sets up the app, the factors answer says so and the lead lifts at once.
 */
export function MfaEnrollmentLead({ now = new Date() }: { now?: Date }) {
  const { user } = useAuth();
  const location = useLocation();
  const enrollment = user?.mfa_enrollment ?? null;
  const factors = useQuery({ ...accountQueries.factors(), enabled: !!enrollment });
  const [later, setLater] = useState(() => sessionStorage.getItem(LATER_KEY) === user?.id);
  // The session's profile may predate an enrollment in another tab: the factors answer decides.
  if (!enrollment || !factors.data || factors.data.totp.enrolled || factors.data.passkeys.count > 0) return null;
  const onSecurity = location.pathname === PATHS.security;
  if (isMfaEnrollmentOverdue(enrollment, now)) {
    if (!onSecurity) return <Navigate to={PATHS.security} replace />;
    return (
      <Alert role="alert" variant="destructive" className="mb-4">
        <ShieldAlert aria-hidden />
        <AlertDescription>{w.leadOverdue}</AlertDescription>
      </Alert>
    );
  }
  if (later && !onSecurity) return null;
  return (
    <Alert role="status" className="mb-4">
      <ShieldAlert aria-hidden />
      <AlertDescription>
        <p>{w.leadWithin(mfaDaysLeft(enrollment.deadline, now), formatDate(enrollment.deadline))}</p>
        {!onSecurity && (
          <div className="mt-2 flex flex-wrap gap-2">
            <Button asChild size="sm">
              <Link to={PATHS.security}>{w.setUpNow}</Link>
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                sessionStorage.setItem(LATER_KEY, user!.id);
                setLater(true);
              }}
            >
              {w.later}
            </Button>
          </div>
        )}
      </AlertDescription>
    </Alert>
  );
}
