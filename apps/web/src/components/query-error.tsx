import { MESSAGES } from '@console/domain';
import { AlertCircle, RotateCw, ShieldAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api';

interface QueryErrorProps {
  error: Error;
  /** The page's title for the failure, above the error's message; or a function that puts the message in the title. */
  title: string | ((message: string) => string);
  /** When given, a 404 shows only this title (e.g. "Organization not found"). */
  notFound?: string;
  /** Loads again. Offered unless the answer was in the 4xx range, which asking again does not change. */
  onRetry?: () => unknown;
}

/** A failed load: 403 is Access Denied with the server's reason; anything else the page's title and the reason. */
export function QueryError({ error, title, notFound, onRetry }: QueryErrorProps) {
  const status = error instanceof ApiError ? error.status : null;
  if (status === 404 && notFound) {
    return (
      <Alert variant="destructive">
        <AlertCircle aria-hidden />
        <AlertTitle>{notFound}</AlertTitle>
      </Alert>
    );
  }
  const denied = status === 403;
  const refused = status !== null && status >= 400 && status < 500;
  return (
    <Alert variant="destructive">
      {denied ? <ShieldAlert aria-hidden /> : <AlertCircle aria-hidden />}
      <AlertTitle>{denied ? MESSAGES.auth.accessDenied : typeof title === 'function' ? title(error.message) : title}</AlertTitle>
      {(denied || typeof title === 'string' || (onRetry && !refused)) && (
        <AlertDescription>
          {(denied || typeof title === 'string') && <p>{error.message}</p>}
          {onRetry && !refused && (
            <Button variant="outline" size="sm" className="w-fit" onClick={() => void onRetry()}>
              <RotateCw aria-hidden />
              Retry
            </Button>
          )}
        </AlertDescription>
      )}
    </Alert>
  );
}
