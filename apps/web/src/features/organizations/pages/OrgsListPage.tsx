import { MESSAGES } from '@console/domain';
import { UnavailablePage } from '@/components/unavailable-page';

/** /orgs: direct children with Table/Hierarchy views. */
export default function OrgsListPage() {
  return <UnavailablePage title={MESSAGES.shell.nav.organizations} />;
}
