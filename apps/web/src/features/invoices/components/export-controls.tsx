import { Download } from 'lucide-react';
import { useState } from 'react';
import { useExportInvoices } from '@/api/invoices';
import { Button } from '@/components/ui/button';
import { announce } from '@/lib/announce';
import { MESSAGES } from '../wording';
import { lastMonth } from '../format';
import { MonthSelect } from './month-select';

const w = MESSAGES.invoicePages;

/** Export CSV for accounting: the seller's invoices, or the payments recorded, of a chosen month (last month by default). */
export function ExportControls({ organizationId }: { organizationId: string }) {
  const [month, setMonth] = useState(lastMonth);
  const exporter = useExportInvoices(organizationId);
  const run = (what: 'invoices' | 'payments') => announce(exporter.mutateAsync({ what, month }), w.exported, w.exportFailed);
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-end">
      <MonthSelect id="invoices-export-month" label={w.exportMonth} value={month} onChange={setMonth} className="grid gap-2 sm:w-44" />
      <Button variant="outline" onClick={() => run('invoices')} disabled={exporter.isPending}>
        <Download aria-hidden />
        {w.exportInvoices}
      </Button>
      <Button variant="outline" onClick={() => run('payments')} disabled={exporter.isPending}>
        <Download aria-hidden />
        {w.exportPayments}
      </Button>
    </div>
  );
}
