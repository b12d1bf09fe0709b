import type { FastifyPluginAsync } from 'fastify';
import { statementsEndpoints as endpoints } from '@console/domain';
import { renderStatementPdf } from '../../lib/pdf/statement-pdf.ts';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';
import { statementCsv } from './statements.service.ts';

/** A download's name: the organization's id (always safe in a header) and the month. */
const fileName = (id: string, month: string, extension: string) => `attachment; filename="statement-${id}-${month}.${extension}"`;

export function statementsRoutes({ statements, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.get, async ({ caller, params }) => statements.statement(caller, params.id, params.month));
    route(endpoints.csv, async ({ caller, params }, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', fileName(params.id, params.month, 'csv'))
        .send(statementCsv(await statements.statement(caller, params.id, params.month))),
    );
    route(endpoints.pdf, async ({ caller, params }, reply) =>
      reply
        .type('application/pdf')
        .header('content-disposition', fileName(params.id, params.month, 'pdf'))
        .send(await renderStatementPdf(await statements.statement(caller, params.id, params.month))),
    );
    route(endpoints.verify, async ({ caller, params, query }) => statements.verify(caller, params.id, params.month, query.code));
  };
}
