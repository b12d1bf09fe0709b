import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';

/** A field's registration with its validation message, to spread on a FormField. */
export function fieldOf<Values extends FieldValues>(form: UseFormReturn<Values, any, any>, name: FieldPath<Values>) {
  // Passing formState keeps the form's subscription to this field's error.
  return { ...form.register(name), error: form.getFieldState(name, form.formState).error?.message };
}
