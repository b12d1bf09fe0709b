import type { FastifyPluginAsync } from 'fastify';
import { invoicesEndpoints as endpoints } from '@console/domain';
import { renderInvoicePdf } from '../../lib/pdf/invoice-pdf.ts';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

export function invoicesRoutes({ invoices, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.getBillingDetails, async ({ caller, params }) => invoices.getBillingDetails(caller, params.id));
    route(endpoints.setBillingDetails, async ({ caller, params, body, raw }) =>
      invoices.setBillingDetails(caller, params.id, body, clientInfo(raw)),
    );
    route(endpoints.list, async ({ caller, params, query }) => invoices.list(caller, params.id, query));
    route(endpoints.drafts, async ({ caller, params }) => invoices.drafts(caller, params.id));
    route(endpoints.issue, async ({ caller, params, body, raw }) => invoices.issue(caller, params.id, body.buyer_id, clientInfo(raw)));
    route(endpoints.get, async ({ caller, params }) => invoices.detail(caller, params.invoiceId));
    route(endpoints.pdf, async ({ caller, params }, reply) => {
      const invoice = await invoices.detail(caller, params.invoiceId);
      const pdf = await renderInvoicePdf(invoice);
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `inline; filename="${invoice.number}.pdf"`)
        .send(pdf);
    });
  };
}
