import { frozenStanding } from '@console/domain';
import { Snowflake } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '@/lib/wording';

/**
 * One line for the people of a suspended or inactive organization: they may look around,
 * but the server refuses every change, and this says why before they try.
 */
export function FrozenBanner() {
  const viewer = useViewer();
  const frozen = viewer ? frozenStanding(viewer) : null;
  if (!frozen) return null;
  return (
    <Alert role="status" variant="info" className="mb-4">
      <Snowflake aria-hidden />
      <AlertDescription>{MESSAGES.organizations.frozen(frozen.status, frozen.where)}</AlertDescription>
    </Alert>
  );
}
