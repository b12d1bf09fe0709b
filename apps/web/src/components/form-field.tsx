import type { ComponentProps } from 'react';
import { LabelledControl } from '@/components/labelled-control';
import { Input } from '@/components/ui/input';

interface FormFieldProps extends ComponentProps<'input'> {
  id: string;
  label: string;
  error?: string;
}

/** A labelled input with its validation message, linked for assistive technology. */
export function FormField({ id, label, error, ...props }: FormFieldProps) {
  return (
    <LabelledControl id={id} label={label} error={error}>
      {(aria) => <Input id={id} {...aria} {...props} />}
    </LabelledControl>
  );
}
