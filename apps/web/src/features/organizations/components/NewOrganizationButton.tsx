import { can, canHaveChildren } from '@console/domain';
import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';

/** Whether the signed-in user may create a child of their own organization. */
export function useCanCreateOrganization(): boolean {
  const { claims } = useAuth();
  return !!claims?.organization_type && canHaveChildren(claims.organization_type) && can(claims.role, 'organizations.create');
}

/** New Organization, to {base}/create, for users who may create a child organization. */
export function NewOrganizationButton({ base }: { base: string }) {
  if (!useCanCreateOrganization()) return null;
  return (
    <Button asChild>
      <Link to={`${base}/create`}>
        <Plus aria-hidden />
        New Organization
      </Link>
    </Button>
  );
}
