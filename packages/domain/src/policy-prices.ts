import type { OrgType } from './hierarchy.ts';
import { can } from './permissions.ts';
import { isDirectChild, isOwnOrganization, mayAllocateCredits, mayWrite, type Actor, type OrganizationFacts } from './policy.ts';

/**
 * Who sees and sets prices, margins, spend caps and automatic top-ups. A seller's prices and
 * margins are its own business, so they are read by its own people only; what a child may spend
 * is set by the parent that gives it credits.
 */

// Prices and earnings -------------------------------------------------------------------

/** Organizations that sell to children: the house (through the catalog), super agencies and agencies. */
const SELLERS: readonly OrgType[] = ['house', 'super_agency', 'agency'];

/** Who looks at prices: a person, through their organization, or an API key, for the organization it acts for. */
export interface Viewer {
  organization: Pick<Actor['organization'], 'id'>;
}

/**
 * The margins rule, which every read follows. A seller's margins are its own business: what
 * it earns per unit, through which child and on which agent, and the price book that sets
 * them are shown to its own people only, never to an organization above it (nor below: a
 * price or margin above an organization stays hidden from it). From above, an organization
 * shows what it spent and used (charges, units, its balance) and what its earnings came to
 * as plain amounts, since its balance moves by them; never how they were made.
 */
export const mayViewMarginsOf = (viewer: Viewer, seller: Pick<OrganizationFacts, 'id'>): boolean => seller.id === viewer.organization.id;

/**
 * The price an organization pays per unit holds the margins of the sellers above it, so it is
 * shown only where the one margin it adds to what the viewer knows is the viewer's own: to the
 * organization itself, and to its seller (its parent), which set that price or passed its own
 * through. From further up it would show the margin of the seller in between.
 */
export function mayViewPricePaidBy(viewer: Viewer, org: Pick<OrganizationFacts, 'id' | 'parent_org_id'>): boolean {
  return org.id === viewer.organization.id || (org.parent_org_id !== null && mayViewMarginsOf(viewer, { id: org.parent_org_id }));
}

/** An organization's price book and earnings are read by its own people with the billing view (the margins rule). */
export function mayViewPrices(actor: Actor, org: Pick<OrganizationFacts, 'id' | 'org_type'>): boolean {
  return can(actor.role, 'billing.view') && mayViewMarginsOf(actor, org) && !!org.org_type && SELLERS.includes(org.org_type);
}

/** A super agency's or agency's admins set what its direct children pay; the house's children pay the catalog. */
export function maySetPrices(actor: Actor, org: Pick<OrganizationFacts, 'id' | 'org_type'>): boolean {
  return (
    can(actor.role, 'billing.manage') &&
    isOwnOrganization(actor, org) &&
    (org.org_type === 'super_agency' || org.org_type === 'agency') &&
    mayWrite(actor)
  );
}

/**
 * A seller's admins set a price for one of its direct children (and that child's subtree), in
 * place of the book: the book's rule, for a child of the seller only.
 */
export function maySetChildPrice(
  actor: Actor,
  seller: Pick<OrganizationFacts, 'id' | 'org_type'>,
  child: Pick<OrganizationFacts, 'parent_org_id'>,
): boolean {
  return maySetPrices(actor, seller) && child.parent_org_id === seller.id;
}

// Spend caps and automatic top-ups ---------------------------------------------------------

/**
 * A child's monthly spend cap (over its subtree) and its automatic top-up are set by its
 * parent's admins (those who allocate credits to it), never by the child itself.
 */
export function maySetSpendControls(actor: Actor, org: Pick<OrganizationFacts, 'parent_org_id'>): boolean {
  return mayAllocateCredits(actor) && isDirectChild(actor, org) && mayWrite(actor);
}
