import { AlertCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';

/** A failure shown in place: the alert icon, a title and, when there is one, the reason. */
export function ErrorAlert({ title, message }: { title: ReactNode; message?: ReactNode }) {
  return (
    <Alert variant="destructive">
      <AlertCircle aria-hidden />
      <AlertTitle>{title}</AlertTitle>
      {message != null && <AlertDescription>{message}</AlertDescription>}
    </Alert>
  );
}
