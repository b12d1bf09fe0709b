import { sql } from 'kysely';
import {
  MESSAGES,
  mayManageInvoicesOf,
  mayViewSellerBooks,
  type InvoiceList,
  type InvoiceState,
  type invoiceListQuerySchema,
  todayUtc,
} from '@console/domain';
import type { z } from 'zod';
import type { Caller } from '../../lib/caller.ts';
import { NotFoundError } from '../../lib/errors.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { summaryQuery, toSummary, type InvoicesDeps } from './queries.ts';

type ListQuery = z.output<typeof invoiceListQuerySchema>;

/**
 * The state as `invoiceState` decides it, in SQL so that a page can be filtered by it; the
 * answers' states are still the domain's (the list test holds the two to each other).
 */
const stateSql = (today: string) => sql<InvoiceState>`case
  when i.voided_at is not null then 'void'
  when i.kind = 'credit_note' then 'credit'
  when coalesce((select sum(p.amount) from invoice_payments p where p.invoice_id = i.id and p.reversed_at is null), 0) >= i.total then 'paid'
  when ${today}::date > i.due_on then 'overdue'
  when exists (select 1 from invoice_payments p where p.invoice_id = i.id and p.reversed_at is null) then 'partially_paid'
  else 'open' end`;

/** An organization's issued documents (`issued`: as seller) or those billed to it (`received`), read by its own people. */
export function createInvoiceList({ db, organizations }: InvoicesDeps & { organizations: OrganizationsService }) {
  async function list(caller: Caller, organizationId: string, query: ListQuery): Promise<InvoiceList> {
    const org = await organizations.visible(caller, organizationId);
    // Either side is the organization's own books: nobody above it lists them.
    if (!mayViewSellerBooks(caller, org)) throw new NotFoundError(MESSAGES.organizations.notFound);
    const today = todayUtc();
    let base = db.selectFrom('invoices as i').where(query.side === 'issued' ? 'i.seller_id' : 'i.buyer_id', '=', org.id);
    if (query.buyer_id) base = base.where('i.buyer_id', '=', query.buyer_id);
    if (query.period) base = base.where('i.period', '=', `${query.period}-01`);
    if (query.state) base = base.where(stateSql(today), '=', query.state);
    const ids = base.select('i.id');
    const [count, rows] = await Promise.all([
      base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
      summaryQuery(db)
        .where('i.id', 'in', ids)
        .orderBy('i.issued_at', 'desc')
        .orderBy('i.number', 'desc')
        .limit(query.page_size)
        .offset((query.page - 1) * query.page_size)
        .execute(),
    ]);
    return {
      invoices: rows.map((row) => toSummary(row, today)),
      total: count.n,
      page: query.page,
      page_size: query.page_size,
      total_pages: Math.ceil(count.n / query.page_size),
      can_manage: query.side === 'issued' && mayManageInvoicesOf(caller, org),
    };
  }
  return { list };
}
