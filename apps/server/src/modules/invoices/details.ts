import { sql } from 'kysely';
import {
  MESSAGES,
  isOwnOrganization,
  isSeller,
  mayManageInvoicesOf,
  mayViewSellerBooks,
  type BillingDetails,
  type BillingDetailsResponse,
  type billingDetailsInputSchema,
} from '@console/domain';
import type { z } from 'zod';
import type { Executor } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { m, numberText, type InvoicesDeps } from './queries.ts';

type DetailsInput = z.output<typeof billingDetailsInputSchema>;

async function readDetails(executor: Executor, organizationId: string): Promise<BillingDetails | null> {
  const row = await executor
    .selectFrom('billing_details')
    .select([
      'legal_name',
      'address',
      'tax_id',
      'currency',
      sql<string>`credit_price::text`.as('credit_price'),
      sql<string>`tax_rate::text`.as('tax_rate'),
      'tax_label',
      'terms_days',
      'number_prefix',
      'note',
      'updated_at',
    ])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row ?? null;
}

/** A seller's billing details: read by its own people, set by its own admins (audited). */
export function createBillingDetails({ db, organizations }: InvoicesDeps & { organizations: OrganizationsService }) {
  async function respond(caller: Caller, org: { id: string; org_type: Caller['organization']['org_type'] }, executor: Executor) {
    const [details, counter] = await Promise.all([
      readDetails(executor, org.id),
      executor.selectFrom('invoice_counters').select('last_number').where('seller_id', '=', org.id).executeTakeFirst(),
    ]);
    return {
      details,
      can_edit: mayManageInvoicesOf(caller, org),
      next_number: numberText(details?.number_prefix ?? '', (counter?.last_number ?? 0) + 1),
    } satisfies BillingDetailsResponse;
  }

  async function get(caller: Caller, organizationId: string): Promise<BillingDetailsResponse> {
    const org = await organizations.visible(caller, organizationId);
    // Organizations above the seller do not read what it prints (nor what it charges).
    if (!mayViewSellerBooks(caller, org)) throw new NotFoundError(MESSAGES.organizations.notFound);
    return respond(caller, org, db);
  }

  async function set(caller: Caller, organizationId: string, input: DetailsInput, info: ClientInfo): Promise<BillingDetailsResponse> {
    return db.transaction().execute(async (trx) => {
      const org = await organizations.visible(caller, organizationId, trx);
      // Another organization's details are not the caller's to see, let alone set.
      if (!isOwnOrganization(caller, org)) throw new NotFoundError(MESSAGES.organizations.notFound);
      if (!isSeller(org)) throw new RuleError(m.onlySellers, 'not_a_seller');
      if (!mayManageInvoicesOf(caller, org)) throw new ForbiddenError(m.onlyOwnAdmins);
      const values = {
        legal_name: input.legal_name,
        address: input.address,
        tax_id: input.tax_id,
        currency: input.currency,
        credit_price: input.credit_price,
        tax_rate: input.tax_rate,
        tax_label: input.tax_label,
        terms_days: input.terms_days,
        number_prefix: input.number_prefix,
        note: input.note,
        updated_at: sql<string>`now()`,
        updated_by: caller.userId,
      };
      await trx
        .insertInto('billing_details')
        .values({ organization_id: org.id, ...values })
        .onConflict((oc) => oc.column('organization_id').doUpdateSet(values))
        .execute();
      const answer = await respond(caller, org, trx);
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'invoices.details_set',
        targetType: 'organization',
        targetId: org.id,
        details: {
          currency: answer.details!.currency,
          credit_price: answer.details!.credit_price,
          tax_rate: answer.details!.tax_rate,
          terms_days: answer.details!.terms_days,
        },
      });
      return answer;
    });
  }

  return { get, set };
}
