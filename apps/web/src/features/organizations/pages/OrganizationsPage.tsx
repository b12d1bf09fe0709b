import { MESSAGES } from '@console/domain';
import { UnavailablePage } from '@/components/unavailable-page';

/** Serves /orgs/* and, for house roles, /organizations/*. */
export default function OrganizationsPage() {
  return <UnavailablePage title={MESSAGES.shell.nav.organizations} />;
}
