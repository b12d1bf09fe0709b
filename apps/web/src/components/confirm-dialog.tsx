import type { ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { buttonVariants } from '@/components/ui/button';

type ConfirmDialogProps = {
  /**
   * Whether it is open, for a caller that opens or closes it itself; left out, the trigger opens
   * it and its buttons close it.
   */
  open?: boolean;
  onOpenChange?(open: boolean): void;
  title: string;
  description: ReactNode;
  /** The button that opens the dialog, when nothing else opens it. */
  trigger?: ReactNode;
  /** Shown between the question and the buttons, such as the server's refusal. */
  children?: ReactNode;
} & (
  | { confirmLabel: string; destructive?: boolean; onConfirm(): void }
  /** An action that leaves closing to its caller (so the dialog can stay open to show a refusal). */
  | { action: ReactNode }
);

/** A confirmation before an action: title, what will happen, Cancel and the action. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, onOpenChange, title, description, trigger, children } = props;
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      {trigger && <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>}
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          {'action' in props ? (
            props.action
          ) : (
            <AlertDialogAction
              className={props.destructive ? buttonVariants({ variant: 'destructive' }) : undefined}
              onClick={props.onConfirm}
            >
              {props.confirmLabel}
            </AlertDialogAction>
          )}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
