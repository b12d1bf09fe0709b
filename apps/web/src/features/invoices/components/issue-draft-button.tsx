import type { InvoiceDraft } from '@console/domain';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useIssueInvoices } from '@/api/invoices';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ErrorAlert } from '@/components/error-alert';
import { Button } from '@/components/ui/button';
import { invoiceHref } from '@/lib/paths';
import { MESSAGES } from '../wording';
import { formatMoney } from '../format';

const w = MESSAGES.invoicePages;

/**
 * Issue now for one child (the seller's admins): asked first with what is issued and the
 * number it takes, then the new invoice opens. A refusal (no billing details, nothing to
 * invoice) stays in the dialog.
 */
export function IssueDraftButton({
  organizationId,
  draft,
  currency,
  nextNumber,
}: {
  organizationId: string;
  draft: InvoiceDraft;
  currency: string;
  nextNumber: string | null;
}) {
  const [open, setOpen] = useState(false);
  const issue = useIssueInvoices(organizationId);
  const navigate = useNavigate();
  const child = draft.buyer.name;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) issue.reset();
  }

  async function confirm() {
    try {
      const issued = await issue.mutateAsync(draft.buyer.id);
      toast.success(w.issued);
      setOpen(false);
      const opened = issued.find((invoice) => invoice.kind === 'invoice') ?? issued[0];
      if (opened) void navigate(invoiceHref(opened.id));
    } catch {
      // The refusal is shown in the dialog.
    }
  }

  const hasInvoice = draft.lines.length > 0;
  const hasCreditNote = draft.credit_lines.length > 0;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={w.issueTitle(child)}
      description={
        <>
          {/* Invoice and credit note share the numbering: which number each takes is said only when there is one document. */}
          {hasInvoice && w.issueBody(formatMoney(draft.total, currency), hasCreditNote ? null : nextNumber)}
          {hasInvoice && hasCreditNote && ' '}
          {hasCreditNote && w.issueCreditNote(formatMoney(draft.credit_total, currency))}
        </>
      }
      trigger={
        <Button size="sm" aria-label={w.issueNowFor(child)}>
          {w.issueNow}
        </Button>
      }
      action={
        <Button onClick={() => void confirm()} disabled={issue.isPending}>
          {issue.isPending ? w.issuing : w.issueConfirm}
        </Button>
      }
    >
      {issue.isError && <ErrorAlert title={w.issueFailed} message={issue.error.message} />}
    </ConfirmDialog>
  );
}
