import { mayCreateChildOrganization } from '@console/domain';
import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { useViewer } from '@/lib/use-viewer';

/** New Organization, to {base}/create, for users who may create a child of their own organization. */
export function NewOrganizationButton({ base }: { base: string }) {
  const viewer = useViewer();
  if (!viewer || !mayCreateChildOrganization(viewer)) return null;
  return (
    <Button asChild>
      <Link to={`${base}/create`}>
        <Plus aria-hidden />
        New Organization
      </Link>
    </Button>
  );
}
