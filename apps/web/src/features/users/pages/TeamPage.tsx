import { MESSAGES } from '@console/domain';
import { UnavailablePage } from '@/components/unavailable-page';

/** Serves /team and /users/*. */
export default function TeamPage() {
  return <UnavailablePage title={MESSAGES.shell.nav.team} />;
}
