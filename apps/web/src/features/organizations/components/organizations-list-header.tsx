import { MESSAGES } from '../wording';
import type { ReactNode } from 'react';
import { BackLink } from '@/components/back-link';
import { PageHeader } from '@/components/page-header';
import { NewOrganizationButton } from './new-organization-button';

/**
 * The head of both organization lists: Back when the list is of another organization than
 * the user's own, the title, what the list holds, the page's own actions and New Organization.
 */
export function OrganizationsListHeader({
  backTo,
  subtitle,
  base,
  children,
}: {
  backTo: string | null;
  subtitle: string;
  base: string;
  children?: ReactNode;
}) {
  return (
    <>
      {backTo && <BackLink to={backTo} />}
      <PageHeader title={MESSAGES.shell.nav.organizations} subtitle={subtitle} align="end">
        <div className="flex flex-wrap items-center gap-2">
          {children}
          <NewOrganizationButton base={base} />
        </div>
      </PageHeader>
    </>
  );
}
