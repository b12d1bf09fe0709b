import { can } from './permissions.ts';
import { isOwnOrganization, mayWrite, type Actor, type OrganizationFacts } from './policy.ts';

/**
 * Who may see and change invoices. An invoice belongs to two organizations only: the seller that
 * issued it and the direct child it bills. Organizations above the seller never read it, even
 * though they read the seller's ledger: what a reseller charges its clients is its own business.
 */

/** Billing details and invoices belong to sellers: every type but the tenant, which bills nobody. */
export const isSeller = (org: Pick<OrganizationFacts, 'org_type'>): boolean => org.org_type !== undefined && org.org_type !== 'tenant';

/** Reads an invoice: a person of the seller or of the billed child, with billing.view. */
export function mayViewInvoice(actor: Actor, invoice: { seller_id: string; buyer_id: string }): boolean {
  return can(actor.role, 'billing.view') && (actor.organization.id === invoice.seller_id || actor.organization.id === invoice.buyer_id);
}

/**
 * Reads what only the seller's admins prepare: drafts and the accounting exports. A read changes
 * nothing, so a frozen seller's admins still read them.
 */
export function mayReadInvoiceWorkOf(actor: Actor, seller: Pick<OrganizationFacts, 'id' | 'org_type'>): boolean {
  return can(actor.role, 'invoices.manage') && isOwnOrganization(actor, seller) && isSeller(seller);
}

/** Sets billing details, issues drafts, records and reverses payments, voids: the seller's own admins, not frozen. */
export function mayManageInvoicesOf(actor: Actor, seller: Pick<OrganizationFacts, 'id' | 'org_type'>): boolean {
  return mayReadInvoiceWorkOf(actor, seller) && mayWrite(actor);
}

/** Reads a seller's billing details and receivables: the seller's own people with billing.view. */
export function mayViewSellerBooks(actor: Actor, seller: Pick<OrganizationFacts, 'id'>): boolean {
  return can(actor.role, 'billing.view') && isOwnOrganization(actor, seller);
}
