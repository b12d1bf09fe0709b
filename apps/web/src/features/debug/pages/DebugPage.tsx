import { canOpenDebug, MESSAGES } from '@console/domain';
import { ShieldAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { UnavailablePage } from '@/components/unavailable-page';
import { useAuth } from '@/lib/auth';

/** Debug tools: only house, super agency and agency admins (spec 1 section 6). */
export default function DebugPage() {
  const { claims } = useAuth();
  if (!canOpenDebug(claims?.role)) {
    return (
      <Alert variant="destructive">
        <ShieldAlert aria-hidden />
        <AlertTitle>{MESSAGES.auth.accessDenied}</AlertTitle>
        <AlertDescription>{MESSAGES.organizations.debugOnly}</AlertDescription>
      </Alert>
    );
  }
  return <UnavailablePage title={MESSAGES.shell.debugTitle} />;
}
