import { MESSAGES } from '@console/domain';
import { UnavailablePage } from '@/components/unavailable-page';

export default function ResourcesPage() {
  return <UnavailablePage title={MESSAGES.shell.nav.resources} />;
}
