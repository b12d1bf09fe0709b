import { MESSAGES } from '@console/domain';
import { AlertCircle } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { ApiError } from '@/lib/api';

/** A failed load: 403 shows Access Denied (no retry); others the page's own title and the reason. */
export function LoadError({ error, title }: { error: Error; title: string }) {
  const denied = error instanceof ApiError && error.status === 403;
  return (
    <Alert variant="destructive">
      <AlertCircle aria-hidden />
      <AlertTitle>{denied ? MESSAGES.auth.accessDenied : title}</AlertTitle>
      <AlertDescription>{error.message}</AlertDescription>
    </Alert>
  );
}
