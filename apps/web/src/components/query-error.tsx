import { AlertCircle, RotateCw, ShieldAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api';
import { MESSAGES } from '@/lib/wording';

interface QueryErrorProps {
  error: Error;
  /** The page's title for the failure, above the error's message; or a function that puts the message in the title. */
  title: string | ((message: string) => string);
  /** When given, a 404 shows only this title (e.g. "Organization not found"). */
  notFound?: string;
  /** Loads again. Offered unless the answer was in the 4xx range, which asking again does not change. */
  onRetry?: () => unknown;
}

/** Whether loading again may help: not after an answer in the 4xx range (refused, missing, invalid), which asking again does not change. */
export function mayRetryLoad(error: Error): boolean {
  const status = error instanceof ApiError ? error.status : null;
  return !(status !== null && status >= 400 && status < 500);
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
  // A refusal stays a refusal: asking again is offered only for other failures.
  const retry = onRetry && mayRetryLoad(error);
  const showMessage = denied || typeof title === 'string';
  return (
    <Alert variant="destructive">
      {denied ? <ShieldAlert aria-hidden /> : <AlertCircle aria-hidden />}
      <AlertTitle>{denied ? MESSAGES.auth.accessDenied : typeof title === 'function' ? title(error.message) : title}</AlertTitle>
      {(showMessage || retry) && (
        <AlertDescription>
          {showMessage && <p>{error.message}</p>}
          {retry && (
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
