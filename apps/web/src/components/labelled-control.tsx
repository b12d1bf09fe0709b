import { Label } from '@/components/ui/label';
import type { ReactNode } from 'react';

interface LabelledControlProps {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  /** The control, given the ids it must reference (aria-describedby, aria-invalid). */
  children(aria: { 'aria-invalid'?: true; 'aria-describedby'?: string }): ReactNode;
}

/** A label, a control that is not a plain input (select, textarea), its hint and its validation message. */
export function LabelledControl({ id, label, hint, error, children }: LabelledControlProps) {
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children({ 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
