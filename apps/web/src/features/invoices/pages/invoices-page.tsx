import { PageHeader } from '@/components/page-header';
import { PageTabs } from '@/components/page-tabs';
import { useSearchPatch } from '@/lib/use-search-patch';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '../wording';
import { ExportControls } from '../components/export-controls';
import { InvoiceDrafts } from '../components/invoice-drafts';
import { InvoiceListPanel } from '../components/invoice-list-panel';
import { invoiceAccess } from '../access';

const w = MESSAGES.invoicePages;
const TABS = ['issued', 'drafts', 'received'] as const;
type Tab = (typeof TABS)[number];

/**
 * /invoices: for a seller, the invoices it issued to its children (Issued), each child's
 * draft with Issue now for its admins (Drafts) and the CSV exports; for every organization
 * below another, the invoices its seller issued to it (Received), read-only. The tab and its
 * filters are in the address.
 */
export default function InvoicesPage() {
  const viewer = useViewer();
  const [params, update] = useSearchPatch();
  if (!viewer) return null;
  const access = invoiceAccess(viewer);
  const shown: Record<Tab, boolean> = { issued: access.issued, drafts: access.drafts, received: access.received };
  const available = TABS.filter((tab) => shown[tab]);
  const requested = params.get('tab') as Tab | null;
  const tab = requested && available.includes(requested) ? requested : available[0];
  const organizationId = viewer.organization.id;
  // Another tab starts without the filters and the page of this one.
  const select = (next: string) => update({ tab: next, state: undefined, buyer_id: undefined, page: undefined });

  return (
    <section className="min-w-0 space-y-6">
      <PageHeader title={w.title} subtitle={access.issued ? w.subtitle : w.subtitleBuyer} />
      {access.drafts && <ExportControls organizationId={organizationId} />}
      {tab && (
        <PageTabs
          value={tab}
          onValueChange={select}
          className="min-w-0 space-y-4"
          tabs={[
            access.issued && {
              value: 'issued',
              label: w.tabs.issued,
              content: <InvoiceListPanel organizationId={organizationId} side="issued" />,
            },
            access.drafts && {
              value: 'drafts',
              label: w.tabs.drafts,
              content: <InvoiceDrafts organizationId={organizationId} mayIssue={access.manage} />,
            },
            access.received && {
              value: 'received',
              label: w.tabs.received,
              content: <InvoiceListPanel organizationId={organizationId} side="received" />,
            },
          ]}
        />
      )}
    </section>
  );
}
