import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '@/lib/api';
import { MESSAGES } from '@/lib/wording';

/**
 * Puts the server's per-field messages (a 400 names the fields) on the form's fields and
 * returns the message for the whole form.
 */
export function applyServerErrors<T extends FieldValues>(error: unknown, fields: readonly Path<T>[], setError: UseFormSetError<T>): string {
  if (error instanceof ApiError) {
    for (const [field, message] of Object.entries(error.fields)) {
      if ((fields as readonly string[]).includes(field)) setError(field as Path<T>, { type: 'server', message });
    }
    return error.message;
  }
  return error instanceof Error ? error.message : MESSAGES.generic.unexpected;
}
