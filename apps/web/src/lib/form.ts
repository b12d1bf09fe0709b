import type { FieldPath, FieldValues, Path, UseFormReturn, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api';
import { MESSAGES } from './wording';

/** A field's registration with its validation message, to spread on a FormField. */
export function fieldOf<Values extends FieldValues>(form: UseFormReturn<Values, any, any>, name: FieldPath<Values>) {
  // Passing formState keeps the form's subscription to this field's error.
  return { ...form.register(name), error: form.getFieldState(name, form.formState).error?.message };
}

/**
 * Puts the server's per-field messages (a 400 or 422 that names the fields) on the form's fields and
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
