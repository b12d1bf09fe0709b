import { type Organization } from '@console/domain';
import { AlertCircle, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useDeleteOrganization } from '@/api/organizations';
import { MESSAGES } from '../wording';
import { ConfirmDialog } from '@/components/confirm-dialog';

/**
 * Delete, with a confirmation. The server refuses (422) while the organization has child
 * organizations, active users or credits, and the dialog shows its reason.
 */
export function DeleteOrganizationButton({ organization, base }: { organization: Pick<Organization, 'id' | 'name'>; base: string }) {
  const navigate = useNavigate();
  const remove = useDeleteOrganization();
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function confirm() {
    setFailure(null);
    try {
      await remove.mutateAsync(organization.id);
      setOpen(false);
      toast.success('Organization deleted', { description: organization.name });
      navigate(base, { replace: true });
    } catch (error) {
      const message = error instanceof Error ? error.message : MESSAGES.generic.unexpected;
      setFailure(message);
      toast.error(MESSAGES.shell.errorTitle, { description: `Failed to delete organization: ${message}` });
    }
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setFailure(null);
      }}
      trigger={
        <Button variant="destructive">
          <Trash2 aria-hidden />
          Delete
        </Button>
      }
      title={`Delete ${organization.name}?`}
      description={
        <>
          The organization disappears from every list and its page. It can be deleted only when it has no child organizations, no active
          users and no credits left.
        </>
      }
      // A plain button: the dialog stays open to show a refusal.
      action={
        <Button variant="destructive" disabled={remove.isPending} onClick={() => void confirm()}>
          {remove.isPending ? 'Deleting…' : 'Delete'}
        </Button>
      }
    >
      {failure && (
        <Alert variant="destructive">
          <AlertCircle aria-hidden />
          <AlertDescription className="text-destructive">{failure}</AlertDescription>
        </Alert>
      )}
    </ConfirmDialog>
  );
}
