import { MESSAGES } from '@console/domain';
import type { ReactNode } from 'react';
import { BackLink } from '@/components/back-link';
import { NewOrganizationButton } from './NewOrganizationButton';

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
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-3xl font-bold tracking-tight">{MESSAGES.shell.nav.organizations}</h1>
          <p className="text-muted-foreground">{subtitle}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {children}
          <NewOrganizationButton base={base} />
        </div>
      </header>
    </>
  );
}
