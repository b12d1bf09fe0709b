import { MESSAGES, isOwnOrganization, isSeller, mayManageInvoicesOf, type InvoiceSummary } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { ConflictError, ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { issueDraft, type Notify } from './issue.ts';
import { m, type InvoicesDeps } from './queries.ts';

/**
 * A seller's admins issue a child's whole draft at once: 404 for a child not theirs, 422
 * without billing details, 409 when the draft is empty (nothing moved since the last invoice,
 * or another issuing took it first).
 */
export function createIssueNow({ db, organizations, mailer, appUrl }: InvoicesDeps & { organizations: OrganizationsService } & Notify) {
  async function issue(caller: Caller, organizationId: string, buyerId: string, info: ClientInfo): Promise<{ invoices: InvoiceSummary[] }> {
    const org = await organizations.visible(caller, organizationId);
    if (!isOwnOrganization(caller, org)) throw new NotFoundError(MESSAGES.organizations.notFound);
    if (!isSeller(org)) throw new RuleError(m.onlySellers, 'not_a_seller');
    if (!mayManageInvoicesOf(caller, org)) throw new ForbiddenError(m.onlyOwnAdmins);
    // A child deleted since keeps what it owes: it is still billed for the credits it received.
    const child = await db
      .selectFrom('organizations')
      .select('id')
      .where('id', '=', buyerId)
      .where('parent_org_id', '=', org.id)
      .executeTakeFirst();
    if (!child) throw new NotFoundError(m.notYourChild);
    const invoices = await db.transaction().execute((trx) =>
      issueDraft(
        trx,
        { mailer, appUrl },
        {
          sellerId: org.id,
          buyerId: child.id,
          before: null,
          period: null,
          actorUserId: caller.userId,
          info,
          skipLocked: false,
        },
      ),
    );
    if (!invoices || invoices.length === 0) throw new ConflictError(m.nothingToIssue);
    return { invoices };
  }
  return { issue };
}
