import { expect } from 'vitest';
import type { BillingDetailsInput } from '@console/domain';
import type { WorldTest } from '../../test/harness.ts';

/** Billing details a test seller sets unless it says otherwise. */
export const DETAILS: BillingDetailsInput = {
  legal_name: 'Agency One Ltd',
  address: '1 Main Street\nSpringfield',
  tax_id: 'GB123',
  currency: 'eur',
  credit_price: '0.0125',
  tax_rate: '20',
  tax_label: 'VAT',
  terms_days: 30,
  number_prefix: 'AG1-',
  note: 'Thank you.',
};

type OrgKey = Parameters<WorldTest['id']>[0];

/** The invoice calls of the tests, through HTTP as the fixture people. */
export function invoiceKit(w: WorldTest) {
  const as = async (who: string, method: string, path: string, body?: unknown) =>
    w.t.request(method, path, body, { token: await w.as(who) });
  const orgId = (org: OrgKey | string) => (org.length > 12 ? org : w.id(org as OrgKey));
  return {
    as,
    setDetails: (who: string, org: OrgKey | string, body: unknown = DETAILS) =>
      as(who, 'PUT', `/api/organizations/${orgId(org)}/billing-details`, body),
    getDetails: (who: string, org: OrgKey | string) => as(who, 'GET', `/api/organizations/${orgId(org)}/billing-details`),
    /** Allocates and answers the transaction id. */
    async allocate(who: string, from: OrgKey | string, to: OrgKey | string, amount: string, notes?: string): Promise<string> {
      const res = await as(who, 'POST', '/api/credits/allocations', { from_org_id: orgId(from), to_org_id: orgId(to), amount, notes });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.transaction_id as string;
    },
    async reverse(who: string, transactionId: string): Promise<string> {
      const res = await as(who, 'POST', `/api/credits/allocations/${transactionId}/reversal`, { reason: 'Sent by mistake' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.transaction_id as string;
    },
    drafts: (who: string, seller: OrgKey | string) => as(who, 'GET', `/api/organizations/${orgId(seller)}/invoice-drafts`),
    issue: (who: string, seller: OrgKey | string, buyer: OrgKey | string) =>
      as(who, 'POST', `/api/organizations/${orgId(seller)}/invoice-drafts/issue`, { buyer_id: orgId(buyer) }),
    list: (who: string, org: OrgKey | string, query = '') => as(who, 'GET', `/api/organizations/${orgId(org)}/invoices${query}`),
    get: (who: string, invoiceId: string) => as(who, 'GET', `/api/invoices/${invoiceId}`),
  };
}
