import { UnavailablePage } from '@/components/unavailable-page';

/** {base}/:id/billing-management. */
export default function BillingManagementPage() {
  return <UnavailablePage title={'Billing Management'} />;
}
