import { UnavailablePage } from '@/components/unavailable-page';

/** {base}/:id. */
export default function OrganizationDetailPage() {
  return <UnavailablePage title={'Organization'} />;
}
