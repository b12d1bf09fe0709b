import type { ComponentProps, FormEvent, ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';

interface FormDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The text of the small outline button that opens the dialog. */
  triggerLabel: string;
  /** The trigger's accessible name when its text alone does not say what it acts on ("Edit Build key"). */
  triggerAriaLabel?: string;
  title: string;
  description: ReactNode;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  /** Where the focus goes on opening; by default the first field. */
  onOpenAutoFocus?: ComponentProps<typeof DialogContent>['onOpenAutoFocus'];
  cancelLabel: string;
  submitLabel: string;
  submitDisabled: boolean;
  /** The fields, then any refusal to show above the buttons. */
  children: ReactNode;
}

/**
 * A small form in a dialog opened by an outline button: title, description, the fields, Cancel and submit.
 * The form validates itself (noValidate) so its messages match the rest of the console.
 */
export function FormDialog({
  open,
  onOpenChange,
  triggerLabel,
  triggerAriaLabel,
  title,
  description,
  onSubmit,
  onOpenAutoFocus,
  cancelLabel,
  submitLabel,
  submitDisabled,
  children,
}: FormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={triggerAriaLabel}>
          {triggerLabel}
        </Button>
      </DialogTrigger>
      <DialogContent onOpenAutoFocus={onOpenAutoFocus}>
        <form noValidate className="grid gap-4" onSubmit={onSubmit}>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          {children}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {cancelLabel}
            </Button>
            <Button type="submit" disabled={submitDisabled}>
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * A dialog's save: run it, then close the dialog. A refusal leaves the dialog open and throws
 * no further, since the dialog shows it (its mutation's error).
 */
export async function saveThenClose(save: () => Promise<unknown>, close: () => void): Promise<void> {
  try {
    await save();
    close();
  } catch {
    // The refusal is shown in the dialog.
  }
}
