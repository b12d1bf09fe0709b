import type { FastifyPluginAsync } from 'fastify';
import { invoicesEndpoints as endpoints } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';
import { INVOICE_EXPORT_COLUMNS, PAYMENT_EXPORT_COLUMNS, invoiceCells, paymentCells } from './exports.ts';

export function paymentsRoutes({ payments, authenticate, csvExports }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.recordPayment, async ({ caller, params, body, raw }, reply) => {
      const detail = await payments.recordPayment(caller, params.invoiceId, body, clientInfo(raw));
      return reply.code(201).send(detail);
    });
    route(endpoints.reversePayment, async ({ caller, params, body, raw }) =>
      payments.reversePayment(caller, params.invoiceId, params.paymentId, body.reason, clientInfo(raw)),
    );
    route(endpoints.void, async ({ caller, params, body, raw }) =>
      payments.voidInvoice(caller, params.invoiceId, body.reason, clientInfo(raw)),
    );
    route(endpoints.receivables, async ({ caller, params }) => payments.receivables(caller, params.id));
    route(endpoints.exportInvoices, async ({ caller, params, query }, reply) =>
      csvExports.send(reply, caller.userId, {
        name: `invoices-${query.month}`,
        columns: INVOICE_EXPORT_COLUMNS,
        cells: (row) => invoiceCells(row),
        rows: () => payments.invoiceExportRows(caller, params.id, query.month),
      }),
    );
    route(endpoints.exportPayments, async ({ caller, params, query }, reply) =>
      csvExports.send(reply, caller.userId, {
        name: `payments-${query.month}`,
        columns: PAYMENT_EXPORT_COLUMNS,
        cells: paymentCells,
        rows: () => payments.paymentExportRows(caller, params.id, query.month),
      }),
    );
  };
}
