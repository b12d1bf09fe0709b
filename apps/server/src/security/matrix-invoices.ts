import type { Kysely } from 'kysely';
import { mayManageInvoicesOf, mayReadInvoiceWorkOf, mayViewBilling, mayViewInvoice, mayViewSellerBooks } from '@console/domain';
import type { DB } from '../db/schema.ts';
import {
  ALLOWED,
  denied,
  holds,
  inPath,
  one,
  sceneOf,
  targeted,
  withBody,
  type CallerInfo,
  type CallInput,
  type Expectation,
  type MatrixEntry,
  type Relation,
  type Scene,
} from './matrix-scene.ts';

/**
 * The matrix's entries for billing details, invoices, payments, receivables and statements.
 * Every organization with a parent holds an issued invoice from that parent and a payment on
 * it, both named by the organization's own id, so a route's `:invoiceId` and `:paymentId` are
 * the target organization's id. An invoice is its seller's and its buyer's alone: unlike the
 * ledger, organizations above the seller never read it (404, as for strangers).
 */
export async function prepareInvoiceRows(db: Kysely<DB>, organizationIds: readonly string[]): Promise<void> {
  const orgs = await db
    .selectFrom('organizations')
    .select(['id', 'name', 'parent_org_id'])
    .where('id', 'in', [...organizationIds])
    .execute();
  const numbers = new Map<string, number>();
  for (const org of orgs.filter((o) => o.parent_org_id !== null)) {
    const seller = org.parent_org_id!;
    const number = (numbers.get(seller) ?? 0) + 1;
    numbers.set(seller, number);
    const party = (id: string) => JSON.stringify({ id, name: 'Matrix', legal_name: 'Matrix Ltd', address: 'Street 1', tax_id: '' });
    await db
      .insertInto('invoices')
      .values({
        id: org.id,
        seller_id: seller,
        buyer_id: org.id,
        kind: 'invoice',
        number,
        number_text: String(number).padStart(6, '0'),
        period: '2026-01-01',
        due_on: '2099-01-01',
        currency: 'USD',
        credit_price: '1.0000',
        tax_rate: '0.000',
        tax_label: 'Tax',
        terms_days: 30,
        seller: party(seller),
        buyer: party(org.id),
        subtotal: '100.00',
        tax: '0.00',
        total: '100.00',
      })
      .execute();
    await db
      .insertInto('invoice_payments')
      .values({ id: org.id, invoice_id: org.id, amount: '1.00', paid_on: '2026-01-02', method: 'other' })
      .execute();
  }
  for (const [seller, last] of numbers) await db.insertInto('invoice_counters').values({ seller_id: seller, last_number: last }).execute();
}

interface InvoiceDecision {
  /** The route's permission, checked before anything is read (403). */
  first: boolean;
  /** The target may be seen at all (404 otherwise, so nothing leaks). */
  visible: boolean;
  /** With both, whether the action applies (a refusal answers 403 or 404). */
  allowed?: boolean;
}

const decide =
  (rule: (scene: Scene) => InvoiceDecision) =>
  (caller: CallerInfo, relation: Relation | null): Expectation => {
    const scene = sceneOf(caller, relation!);
    const { first, visible, allowed = true } = rule(scene);
    if (!first) return denied(403, 404);
    if (!visible) return denied(404);
    return allowed ? ALLOWED : denied(403, 404);
  };

/** The invoice named by the target organization's id: billed to it by its parent (none for a house). */
const invoiceOf = ({ org }: Scene) => (org.parent_org_id ? { seller_id: org.parent_org_id, buyer_id: org.id } : null);
/** The seller of that invoice as the predicates read it: only its id decides whether the actor is it. */
const sellerOf = (scene: Scene) => ({ id: scene.org.parent_org_id ?? '', org_type: scene.actor.organization.org_type });

/** The seller's own books: read by its people (billing.view), its admins' work read (drafts, exports) or changed. */
const ownBooks = (kind: 'read' | 'work' | 'change') =>
  decide(({ actor, org }) => ({
    first: holds(actor, kind === 'read' ? 'billing.view' : 'invoices.manage'),
    visible: !org.deleted && (kind === 'read' ? mayViewSellerBooks(actor, org) : org.id === actor.organization.id),
    allowed: kind === 'work' ? mayReadInvoiceWorkOf(actor, org) : kind === 'change' ? mayManageInvoicesOf(actor, org) : true,
  }));
const invoiceRead = decide((scene) => {
  const invoice = invoiceOf(scene);
  return { first: holds(scene.actor, 'billing.view'), visible: invoice !== null && mayViewInvoice(scene.actor, invoice) };
});
const invoiceWrite = decide((scene) => {
  const invoice = invoiceOf(scene);
  return {
    first: holds(scene.actor, 'invoices.manage'),
    visible: invoice !== null && mayViewInvoice(scene.actor, invoice),
    allowed: mayManageInvoicesOf(scene.actor, sellerOf(scene)),
  };
});
const statementRead = targeted(({ actor }) => ({ first: mayViewBilling(actor) }));

const month = new Date().toISOString().slice(0, 7);
const named = ({ url, target }: CallInput) => ({
  path: url.replace(':invoiceId', target!.id).replace(':paymentId', target!.id).replace(':month', month),
});
const namedWith = (body: (input: CallInput) => unknown) => (input: CallInput) => ({ ...named(input), body: body(input) });

const DETAILS = {
  legal_name: 'Matrix Ltd',
  address: 'Street 1',
  currency: 'USD',
  credit_price: '0.01',
  tax_rate: '0',
  tax_label: 'Tax',
  terms_days: 30,
};

export const INVOICE_MATRIX: Record<string, MatrixEntry> = {
  'GET /api/organizations/:id/billing-details': one({ target: 'org', expect: ownBooks('read'), call: inPath }),
  'PUT /api/organizations/:id/billing-details': one({ target: 'org', expect: ownBooks('change'), call: withBody(() => DETAILS) }),
  'GET /api/organizations/:id/invoices': one({ target: 'org', expect: ownBooks('read'), call: inPath }),
  'GET /api/organizations/:id/invoice-drafts': one({ target: 'org', expect: ownBooks('work'), call: inPath }),
  // The caller's own child, so an allowed call reaches the rules (nothing to bill, or no details: 409 or 422).
  'POST /api/organizations/:id/invoice-drafts/issue': one({
    target: 'org',
    expect: ownBooks('change'),
    call: withBody(({ caller }) => ({ buyer_id: caller.childId ?? '00000000-0000-4000-8000-000000000000' })),
  }),
  'GET /api/organizations/:id/receivables': one({ target: 'org', expect: ownBooks('read'), call: inPath }),
  'GET /api/organizations/:id/invoices/export': one({
    target: 'org',
    expect: ownBooks('work'),
    call: ({ url }) => ({ path: `${url}?month=${month}` }),
  }),
  'GET /api/organizations/:id/payments/export': one({
    target: 'org',
    expect: ownBooks('work'),
    call: ({ url }) => ({ path: `${url}?month=${month}` }),
  }),
  'GET /api/invoices/:invoiceId': one({ target: 'org', expect: invoiceRead, call: named }),
  'GET /api/invoices/:invoiceId/pdf': one({ target: 'org', expect: invoiceRead, call: named }),
  'POST /api/invoices/:invoiceId/payments': one({
    target: 'org',
    expect: invoiceWrite,
    call: namedWith(() => ({ amount: '0.01', paid_on: '2026-01-03', method: 'bank_transfer', reference: 'matrix' })),
  }),
  'POST /api/invoices/:invoiceId/payments/:paymentId/reverse': one({
    target: 'org',
    expect: invoiceWrite,
    call: namedWith(() => ({ reason: 'matrix' })),
  }),
  'POST /api/invoices/:invoiceId/void': one({ target: 'org', expect: invoiceWrite, call: namedWith(() => ({ reason: 'matrix' })) }),
  'GET /api/organizations/:id/statements/:month': one({ target: 'org', expect: statementRead, call: named }),
  'GET /api/organizations/:id/statements/:month/csv': one({ target: 'org', expect: statementRead, call: named }),
  'GET /api/organizations/:id/statements/:month/pdf': one({ target: 'org', expect: statementRead, call: named }),
  'GET /api/organizations/:id/statements/:month/verify': one({
    target: 'org',
    expect: statementRead,
    call: (input) => ({ path: `${named(input).path}?code=${'0'.repeat(64)}` }),
  }),
};
