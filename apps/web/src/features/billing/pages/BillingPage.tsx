import { UnavailablePage } from '@/components/unavailable-page';

/** {base}/:id/billing. */
export default function BillingPage() {
  return <UnavailablePage title={'Billing'} />;
}
