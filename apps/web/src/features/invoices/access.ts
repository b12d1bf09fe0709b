import {
  isSeller,
  mayManageInvoicesOf,
  mayReadInvoiceWorkOf,
  mayViewBilling,
  mayViewSellerBooks,
  parentTypeOf,
  type Actor,
} from '@console/domain';

/**
 * What the viewer may see and do on the Invoices page, from the domain's predicates: the
 * invoices its organization issued (a seller's own people), the drafts and exports (read by
 * those holding invoices.manage, even while frozen), issuing (the seller's admins, not frozen),
 * and those its seller issued to it (every organization below another).
 */
export function invoiceAccess(viewer: Actor) {
  const own = viewer.organization;
  const seller = isSeller(own) && mayViewSellerBooks(viewer, own);
  return {
    issued: seller,
    drafts: seller && mayReadInvoiceWorkOf(viewer, own),
    manage: mayManageInvoicesOf(viewer, own),
    received: mayViewBilling(viewer) && parentTypeOf(own.org_type) !== null,
  };
}
