import { useId } from 'react';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';

interface FormSwitchProps {
  label: string;
  description: string;
  checked: boolean;
  onCheckedChange(checked: boolean): void;
  disabled?: boolean;
}

/** A labelled switch with a line that says what turning it on does. */
export function FormSwitch({ label, description, checked, onCheckedChange, disabled }: FormSwitchProps) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4 rounded-lg border p-3">
      <div className="space-y-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-description`} className="text-sm text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onCheckedChange} disabled={disabled} aria-describedby={`${id}-description`} />
    </div>
  );
}
