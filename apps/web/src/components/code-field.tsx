import type { ComponentProps } from 'react';
import { FormField } from '@/components/form-field';

interface CodeFieldProps extends Omit<ComponentProps<typeof FormField>, 'type'> {
  /** A 6-digit code from an authenticator app, or any code a person may type (a recovery code too). */
  kind: 'totp' | 'any';
}

/**
 * A field for a second-factor code. A 6-digit code offers the phone's number pad and lets the
 * browser fill a code it received; any other code is typed as text, neither spell-checked nor remembered.
 */
export function CodeField({ kind, ...props }: CodeFieldProps) {
  const totp = kind === 'totp';
  return (
    <FormField
      type="text"
      inputMode={totp ? 'numeric' : 'text'}
      autoComplete={totp ? 'one-time-code' : 'off'}
      pattern={totp ? '[0-9]*' : undefined}
      maxLength={totp ? 6 : 64}
      spellCheck={false}
      autoCapitalize="off"
      className="font-mono tracking-widest"
      {...props}
    />
  );
}
