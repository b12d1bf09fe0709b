import { ShieldAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { MESSAGES } from '@/lib/wording';

/**
 * What a page shows instead of a form the user may not use: why it is refused. A page whose heading belongs to its form
 * passes its `title`, so the refused page still has its level-one heading.
 */
export function PermissionDenied({ message, title }: { message: string; title?: string }) {
  const alert = (
    <Alert variant="destructive">
      <ShieldAlert aria-hidden />
      <AlertTitle>{MESSAGES.organizations.permissionDenied}</AlertTitle>
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
  if (!title) return alert;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {alert}
    </div>
  );
}
