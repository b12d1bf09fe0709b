import { MESSAGES } from '@console/domain';
import { UnavailablePage } from '@/components/unavailable-page';

export default function SettingsPage() {
  return <UnavailablePage title={MESSAGES.shell.nav.settings} />;
}
