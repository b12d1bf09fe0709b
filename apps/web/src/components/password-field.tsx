import type { ComponentProps } from 'react';
import { FormField } from '@/components/form-field';

interface PasswordFieldProps extends Omit<ComponentProps<typeof FormField>, 'type' | 'autoComplete'> {
  /** Tells the password manager whether to fill a saved password or offer a new one. */
  autoComplete: 'current-password' | 'new-password';
}

/** A required, masked password input with its label and validation message. */
export function PasswordField(props: PasswordFieldProps) {
  return <FormField type="password" required {...props} />;
}
