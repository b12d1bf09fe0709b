import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/confirm-dialog';

/**
 * A row's destructive action, asked first: a small button named for its subject
 * ("Revoke Build key"), then a confirmation whose action carries the same label.
 */
export function ConfirmButton({
  label,
  subject,
  icon,
  pending,
  title,
  description,
  onConfirm,
}: {
  label: string;
  /** What the action applies to; the button's accessible name is the label followed by it. */
  subject: string;
  icon?: ReactNode;
  pending: boolean;
  title: string;
  description: ReactNode;
  onConfirm(): void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} disabled={pending} aria-label={`${label} ${subject}`}>
        {icon}
        {label}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={title}
        description={description}
        confirmLabel={label}
        destructive
        onConfirm={onConfirm}
      />
    </>
  );
}
