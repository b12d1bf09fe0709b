import { Controller, type Control, type FieldValues, type Path, type UseFormRegisterReturn } from 'react-hook-form';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { CardFooter } from '@/components/ui/card';
import { LabelledControl } from '@/components/labelled-control';
import { Textarea } from '@/components/ui/textarea';
import { FormSwitch } from './form-switch';

/** The organization's description, on the create and the edit form. */
export function DescriptionField({ error, ...registration }: UseFormRegisterReturn & { error?: string }) {
  return (
    <LabelledControl id="org-description" label="Description (optional)" error={error}>
      {(aria) => <Textarea id="org-description" rows={3} {...aria} {...registration} />}
    </LabelledControl>
  );
}

/** The switch that keeps the parent organization's administrators from inviting users into this one. */
export function ParentInvitesSwitch<Values extends FieldValues & { disable_parent_invites?: boolean }>({
  control,
  description,
}: {
  control: Control<Values, any, any>;
  description: string;
}) {
  return (
    <Controller
      control={control}
      name={'disable_parent_invites' as Path<Values>}
      render={({ field }) => (
        <FormSwitch label="Disable parent invites" description={description} checked={!!field.value} onCheckedChange={field.onChange} />
      )}
    />
  );
}

/** The foot of an organization form: Cancel back to `cancelTo`, and the submit button, which says when it is busy. */
export function FormActions({
  cancelTo,
  submitting,
  label,
  busyLabel,
}: {
  cancelTo: string;
  submitting: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <CardFooter className="justify-end gap-2">
      <Button asChild variant="outline">
        <Link to={cancelTo}>Cancel</Link>
      </Button>
      <Button type="submit" disabled={submitting}>
        {submitting ? busyLabel : label}
      </Button>
    </CardFooter>
  );
}
