import { UnavailablePage } from '@/components/unavailable-page';

/** {base}/:id/edit. */
export default function EditOrganizationPage() {
  return <UnavailablePage title={'Edit Organization'} />;
}
