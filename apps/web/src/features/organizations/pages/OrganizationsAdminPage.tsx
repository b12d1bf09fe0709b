import { MESSAGES } from '@console/domain';
import { UnavailablePage } from '@/components/unavailable-page';

/** /organizations (house roles): Child Organizations and All Organizations tables. */
export default function OrganizationsAdminPage() {
  return <UnavailablePage title={MESSAGES.shell.nav.organizations} />;
}
