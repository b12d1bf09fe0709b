import { ShieldAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { MESSAGES } from '@/lib/wording';

/** What a page shows instead of a form the user may not use. */
export function PermissionDenied({ message }: { message: string }) {
  return (
    <Alert variant="destructive">
      <ShieldAlert aria-hidden />
      <AlertTitle>{MESSAGES.organizations.permissionDenied}</AlertTitle>
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}
