import { frozenStanding, mayManageInvoicesOf } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { ReceiptText } from 'lucide-react';
import { invoiceQueries } from '@/api/invoices';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadingRows } from '@/components/loading-rows';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '../wording';
import { BillingDetailsForm } from '../components/billing-details-form';
import { BillingDetailsView } from '../components/billing-details-view';

const d = MESSAGES.invoicePages.details;

/**
 * /settings/billing-details: what a seller prints on its invoices. Its admins change them
 * (`mayManageInvoicesOf`); its other people with billing.view read them (the route lets no one
 * else in). What changes applies to invoices not yet issued, as the page says.
 */
export default function BillingDetailsPage() {
  const viewer = useViewer();
  const { user } = useAuth();
  const organizationId = viewer?.organization.id ?? '';
  const details = useQuery({ ...invoiceQueries.billingDetails(organizationId), enabled: !!viewer });
  if (!viewer) return null;
  const mayEdit = mayManageInvoicesOf(viewer, viewer.organization);
  const frozen = frozenStanding(viewer);
  const name = user?.organization.id === organizationId ? user.organization.name : MESSAGES.identityPages.yourOrganization;

  return (
    <section className="mx-auto min-w-0 max-w-3xl space-y-6">
      <Breadcrumbs items={[{ label: MESSAGES.shell.nav.settings, to: PATHS.settings }, { label: d.title }]} />
      <PageHeader title={d.title} subtitle={d.subtitle(name)} />
      <Card className="gap-4">
        <CardHeader>
          <IconCardTitle icon={ReceiptText}>{d.title}</IconCardTitle>
          <CardDescription>{d.appliesTo}</CardDescription>
          {!mayEdit && <CardDescription>{frozen ? d.frozenReadOnly : d.readOnly}</CardDescription>}
        </CardHeader>
        <CardContent>
          {details.isPending ? (
            <LoadingRows rows={['h-10 w-full', 'h-24 w-full', 'h-10 w-full', 'h-10 w-full']} />
          ) : details.isError ? (
            <QueryError error={details.error} title={d.loadFailed} onRetry={details.refetch} />
          ) : mayEdit ? (
            <BillingDetailsForm organizationId={organizationId} details={details.data.details} nextNumber={details.data.next_number} />
          ) : (
            <BillingDetailsView details={details.data.details} nextNumber={details.data.next_number} />
          )}
        </CardContent>
      </Card>
    </section>
  );
}
