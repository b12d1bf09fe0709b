import { MESSAGES } from '@console/domain';
import { AlertCircle, ShieldAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { ApiError } from '@/lib/api';

/**
 * A failed load: 403 is Access Denied, 404 is Organization not found, anything else shows the
 * page's message: a title above the error's message, or a function that puts the message in the title.
 */
export function LoadError({ error, title }: { error: Error; title: string | ((message: string) => string) }) {
  if (error instanceof ApiError && error.status === 403) {
    return (
      <Alert variant="destructive">
        <ShieldAlert aria-hidden />
        <AlertTitle>{MESSAGES.auth.accessDenied}</AlertTitle>
        <AlertDescription>{error.message}</AlertDescription>
      </Alert>
    );
  }
  if (error instanceof ApiError && error.status === 404) {
    return (
      <Alert variant="destructive">
        <AlertCircle aria-hidden />
        <AlertTitle>{MESSAGES.organizations.notFound}</AlertTitle>
      </Alert>
    );
  }
  return (
    <Alert variant="destructive">
      <AlertCircle aria-hidden />
      <AlertTitle>{typeof title === 'function' ? title(error.message) : title}</AlertTitle>
      {typeof title === 'string' && <AlertDescription>{error.message}</AlertDescription>}
    </Alert>
  );
}
