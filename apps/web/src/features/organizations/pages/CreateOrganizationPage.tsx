import { UnavailablePage } from '@/components/unavailable-page';

/** {base}/create. */
export default function CreateOrganizationPage() {
  return <UnavailablePage title={'Create Organization'} />;
}
