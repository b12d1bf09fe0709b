import { AlertCircle } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { MESSAGES, type LoginErrorClass } from '../wording';

export interface LoginFailure {
  kind: LoginErrorClass;
  /** The server's or the browser's own message, shown for errors of no known class. */
  message: string;
}

/** One alert per class of sign-in error (classifyLoginError): title, message and a troubleshooting line. */
export function LoginErrorAlert({ failure }: { failure: LoginFailure }) {
  const copy = MESSAGES.loginErrors[failure.kind];
  const message = failure.kind === 'unknown' ? failure.message || copy.message : copy.message;
  return (
    <Alert variant="destructive">
      <AlertCircle aria-hidden />
      <AlertTitle>{copy.title}</AlertTitle>
      <AlertDescription>
        <p>{message}</p>
        <p>{copy.troubleshooting}</p>
        {failure.kind === 'jwt' && <p>{MESSAGES.loginErrors.jwt.systemUpdateNotice}</p>}
      </AlertDescription>
    </Alert>
  );
}
