import { mayManageInvoicesOf, type Actor, type InvoiceDetail } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { FileDown } from 'lucide-react';
import { useParams } from 'react-router';
import { invoiceQueries, useDownloadInvoicePdf, useVoidInvoice } from '@/api/invoices';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { announce } from '@/lib/announce';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '../wording';
import { InvoiceLinesTable } from '../components/invoice-lines-table';
import { InvoiceParties } from '../components/invoice-parties';
import { InvoiceStateBadge } from '../components/invoice-state-badge';
import { InvoiceTotals } from '../components/invoice-totals';
import { PaymentsCard } from '../components/payments-card';
import { ReasonDialog } from '../components/reason-dialog';
import { formatDay, formatMoney, monthLabel, plainRate } from '../format';

const w = MESSAGES.invoicePages;

/** The seller's admins manage its invoices: the predicate, on the seller the invoice names, and the server's own say. */
const mayManage = (viewer: Actor, invoice: InvoiceDetail) =>
  invoice.can_manage && invoice.seller.id === viewer.organization.id && mayManageInvoicesOf(viewer, viewer.organization);

/** The facts under the title: period, dates, terms, price per credit and the verification code. */
function Facts({ invoice }: { invoice: InvoiceDetail }) {
  const facts: [string, string][] = [
    [w.period, monthLabel(invoice.period)],
    [w.issuedOn, formatDay(invoice.issued_at)],
    [w.dueOn, formatDay(invoice.due_on)],
    [w.termsLabel, w.terms(invoice.terms_days)],
    [w.creditPrice, `${invoice.credit_price} ${invoice.currency}`],
  ];
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
      {facts.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="font-medium">{value}</dd>
        </div>
      ))}
      <div className="min-w-0 sm:col-span-2 lg:col-span-3">
        <dt className="text-muted-foreground">{w.verificationCode}</dt>
        <dd className="font-mono text-xs break-all">{invoice.verification_code ?? w.verificationCodeNone}</dd>
      </div>
    </dl>
  );
}

function InvoiceView({ invoice, viewer }: { invoice: InvoiceDetail; viewer: Actor }) {
  const pdf = useDownloadInvoicePdf();
  const voider = useVoidInvoice(invoice.id);
  const manage = mayManage(viewer, invoice);
  const activePayments = invoice.payments.some((payment) => payment.reversed_at === null);
  const title = invoice.kind === 'credit_note' ? w.creditNoteTitle(invoice.number) : w.invoiceTitle(invoice.number);
  const downloadPdf = () => announce(pdf.mutateAsync({ invoiceId: invoice.id, number: invoice.number }), w.pdfDownloaded, w.pdfFailed);

  return (
    <>
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-2">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-3xl font-bold tracking-tight wrap-anywhere">{title}</h1>
            <InvoiceStateBadge state={invoice.state} className="text-sm" />
          </div>
          <p className="text-muted-foreground">
            {invoice.seller.name} → {invoice.buyer.name} · {formatMoney(invoice.total, invoice.currency)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={downloadPdf} disabled={pdf.isPending}>
            <FileDown aria-hidden />
            {w.downloadPdf}
          </Button>
          {manage && invoice.state !== 'void' && !activePayments && (
            <ReasonDialog
              id="void-invoice"
              wording={{
                trigger: w.void,
                title: w.voidTitle(invoice.number),
                description: w.voidBody,
                confirm: w.voidConfirm,
                pending: w.voiding,
                done: w.voided,
                failed: w.voidFailed,
              }}
              onConfirm={(reason) => voider.mutateAsync(reason)}
            />
          )}
        </div>
      </header>

      {invoice.voided_at && (
        <p className="rounded-md border border-dashed p-3 text-sm">{w.voidedOn(formatDay(invoice.voided_at), invoice.void_reason ?? '')}</p>
      )}

      <Card className="min-w-0 gap-6">
        <CardContent className="space-y-6">
          <InvoiceParties seller={invoice.seller_details} buyer={invoice.buyer_details} />
          <Facts invoice={invoice} />
        </CardContent>
      </Card>

      <Card className="min-w-0 gap-4">
        <CardHeader>
          <CardTitle>{w.lines.label}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          <InvoiceLinesTable lines={invoice.lines} currency={invoice.currency} label={w.lines.label} />
          <InvoiceTotals
            totals={invoice.kind === 'invoice' ? invoice : { subtotal: invoice.subtotal, tax: invoice.tax, total: invoice.total }}
            currency={invoice.currency}
            taxLabel={w.totals.tax(invoice.tax_label, plainRate(invoice.tax_rate))}
          />
          {invoice.note && (
            <p className="text-sm whitespace-pre-line text-muted-foreground">
              <span className="font-medium text-foreground">{w.note}: </span>
              {invoice.note}
            </p>
          )}
        </CardContent>
      </Card>

      {invoice.kind === 'invoice' && <PaymentsCard invoice={invoice} mayManage={manage} />}
    </>
  );
}

/**
 * /invoices/:invoiceId: an issued invoice or credit note as the seller or the billed child
 * reads it (anyone else is answered 404, as if it did not exist), with its PDF; the seller's
 * admins record and reverse payments and void it. Every change shows at once: the answer is
 * the invoice as it now is, and the lists and receivables are read again.
 */
export default function InvoiceDetailPage() {
  const { invoiceId = '' } = useParams();
  const viewer = useViewer();
  const invoice = useQuery({ ...invoiceQueries.detail(invoiceId), enabled: !!invoiceId });
  return (
    <section className="min-w-0 space-y-6">
      <Breadcrumbs items={[{ label: w.backToInvoices, to: PATHS.invoices }, { label: invoice.data?.number ?? '…' }]} />
      {invoice.isPending ? (
        <LoadingRows rows={['h-10 w-64', 'h-48 w-full', 'h-48 w-full']} />
      ) : invoice.isError ? (
        <QueryError
          error={invoice.error}
          title={w.detailLoadFailed}
          notFound={MESSAGES.invoices.invoiceNotFound}
          onRetry={invoice.refetch}
        />
      ) : viewer ? (
        <InvoiceView invoice={invoice.data} viewer={viewer} />
      ) : null}
    </section>
  );
}
