import { MESSAGES } from '@console/domain';
import { UnavailablePage } from '@/components/unavailable-page';

export default function CreditLedgerPage() {
  return <UnavailablePage title={MESSAGES.shell.nav.creditLedger} />;
}
