import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Mailer } from '../../lib/mail.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { createBillingDetails } from './details.ts';
import { createDrafts } from './drafts.ts';
import { createIssueNow } from './issue-now.ts';
import { createInvoiceList } from './list.ts';
import { createInvoiceRead } from './read.ts';

export { detailOf } from './queries.ts';

/** The invoices service: billing details, drafts, issuing at once, and reading issued invoices. */
export function createInvoicesService(deps: {
  db: Kysely<DB>;
  /** The list of issued invoices reads here (the replica when there is one). */
  readDb?: Kysely<DB>;
  organizations: OrganizationsService;
  mailer: Mailer;
  appUrl: string;
}) {
  const details = createBillingDetails(deps);
  const { detail } = createInvoiceRead(deps);
  return {
    getBillingDetails: details.get,
    setBillingDetails: details.set,
    drafts: createDrafts(deps).drafts,
    issue: createIssueNow(deps).issue,
    list: createInvoiceList({ ...deps, db: deps.readDb ?? deps.db }).list,
    /** An invoice with its lines and payments, for a caller who may read it (404 otherwise, as for one that does not exist). */
    detail,
  };
}

export type InvoicesService = ReturnType<typeof createInvoicesService>;
