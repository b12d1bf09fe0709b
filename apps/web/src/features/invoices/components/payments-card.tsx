import { PAYMENT_METHOD_LABELS, type InvoiceDetail, type InvoicePayment } from '@console/domain';
import { useReversePayment } from '@/api/invoices';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime } from '@/lib/dates';
import { cn } from '@/lib/utils';
import { MESSAGES } from '../wording';
import { formatDay, formatMoney, isPositive } from '../format';
import { ReasonDialog } from './reason-dialog';
import { RecordPaymentDialog } from './record-payment-dialog';

const w = MESSAGES.invoicePages;

/** One payment: amount, date, method and reference, who recorded it, and Reverse while it counts (the seller's admins). */
function PaymentRow({ invoice, payment, mayManage }: { invoice: InvoiceDetail; payment: InvoicePayment; mayManage: boolean }) {
  const reverse = useReversePayment(invoice.id);
  const amount = formatMoney(payment.amount, invoice.currency);
  const day = formatDay(payment.paid_on);
  const reversed = payment.reversed_at !== null;
  return (
    <li className="flex min-w-0 flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-0.5 text-sm">
        <p className={cn('font-medium', reversed && 'text-muted-foreground line-through')}>
          {w.paymentLine(amount, day, PAYMENT_METHOD_LABELS[payment.method])}
        </p>
        {payment.reference && <p className="text-muted-foreground wrap-anywhere">{w.paymentReference(payment.reference)}</p>}
        <p className="text-muted-foreground">
          {payment.recorded_by
            ? w.paymentRecordedBy(payment.recorded_by, formatDateTime(payment.recorded_at))
            : w.paymentRecordedAt(formatDateTime(payment.recorded_at))}
        </p>
        {reversed && (
          <p className="flex flex-wrap items-center gap-2 wrap-anywhere">
            <Badge variant="secondary">{w.reversedBadge}</Badge>
            {w.paymentReversed(formatDateTime(payment.reversed_at), payment.reverse_reason ?? '')}
          </p>
        )}
      </div>
      {mayManage && !reversed && (
        <ReasonDialog
          id={`reverse-${payment.id}`}
          wording={{
            trigger: w.reverse,
            triggerAria: w.reverseAria(amount, day),
            title: w.reverseTitle,
            description: w.reverseBody(amount, day),
            confirm: w.reverseConfirm,
            pending: w.reversing,
            done: w.reversed,
            failed: w.reverseFailed,
          }}
          onConfirm={(reason) => reverse.mutateAsync({ paymentId: payment.id, reason })}
        />
      )}
    </li>
  );
}

/** The payments of an invoice, newest as the server orders them, with Record payment while something is owed. */
export function PaymentsCard({ invoice, mayManage }: { invoice: InvoiceDetail; mayManage: boolean }) {
  const payable = invoice.kind === 'invoice' && invoice.state !== 'void' && isPositive(invoice.outstanding);
  return (
    <Card className="min-w-0 gap-4">
      <CardHeader className="flex flex-wrap items-center justify-between gap-2">
        <CardTitle>{w.paymentsTitle}</CardTitle>
        {mayManage && payable && <RecordPaymentDialog invoice={invoice} />}
      </CardHeader>
      <CardContent>
        {invoice.payments.length === 0 ? (
          <p className="text-sm text-muted-foreground">{w.paymentsEmpty}</p>
        ) : (
          <ul className="divide-y" aria-label={w.paymentsLabel}>
            {invoice.payments.map((payment) => (
              <PaymentRow key={payment.id} invoice={invoice} payment={payment} mayManage={mayManage} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
