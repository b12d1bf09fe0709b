import { sql } from 'kysely';
import { MESSAGES, isOwnOrganization, isSeller, mayReadInvoiceWorkOf, type InvoiceDraft, type InvoiceDrafts } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { asLine, billableLines, periodOf, totalsOf, type BillableLine } from './billable.ts';
import { m, type InvoicesDeps } from './queries.ts';

/**
 * Each child's draft: its billable entries no document holds yet, priced at the seller's
 * billing details as they are today, split as issuing would split them (an invoice, and a
 * credit note for reversals of credits already invoiced). Read by the seller's own admins.
 */
export function createDrafts({ db, organizations }: InvoicesDeps & { organizations: OrganizationsService }) {
  async function drafts(caller: Caller, organizationId: string): Promise<InvoiceDrafts> {
    const org = await organizations.visible(caller, organizationId);
    // Above the seller nobody sees what it bills.
    if (!isOwnOrganization(caller, org)) throw new NotFoundError(MESSAGES.organizations.notFound);
    if (!isSeller(org)) throw new RuleError(m.onlySellers, 'not_a_seller');
    if (!mayReadInvoiceWorkOf(caller, org)) throw new ForbiddenError(m.onlyOwnAdmins);
    const [details, lines] = await Promise.all([
      db
        .selectFrom('billing_details')
        .select(['currency', sql<string>`tax_rate::text`.as('tax_rate')])
        .where('organization_id', '=', org.id)
        .executeTakeFirst(),
      billableLines(db, org.id, null),
    ]);
    const byBuyer = new Map<string, BillableLine[]>();
    for (const line of lines) byBuyer.set(line.buyer_id, [...(byBuyer.get(line.buyer_id) ?? []), line]);
    const rate = details?.tax_rate ?? '0';
    return {
      ready: details !== undefined,
      currency: details?.currency ?? null,
      drafts: [...byBuyer.values()].map((buyerLines): InvoiceDraft => {
        const invoiceLines = buyerLines.filter((line) => !line.on_credit_note);
        const creditLines = buyerLines.filter((line) => line.on_credit_note);
        const totals = totalsOf(
          invoiceLines.map((line) => line.amount),
          rate,
        );
        return {
          buyer: { id: buyerLines[0]!.buyer_id, name: buyerLines[0]!.buyer_name },
          period: periodOf(buyerLines),
          lines: invoiceLines.map(asLine),
          ...totals,
          credit_lines: creditLines.map(asLine),
          credit_total: totalsOf(
            creditLines.map((line) => line.amount),
            rate,
          ).total,
        };
      }),
    };
  }
  return { drafts };
}
