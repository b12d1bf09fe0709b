import { UnavailablePage } from '@/components/unavailable-page';

/** {base}/:id/resources. */
export default function OrganizationResourcesPage() {
  return <UnavailablePage title={'Resources'} />;
}
